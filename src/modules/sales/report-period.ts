import { invalidRequest } from "../../platform/errors.ts";
import { REPORT_PERIOD_DAYS_MAX } from "./schemas.ts";

/** A report's period, refused when it is backwards or longer than REPORT_PERIOD_DAYS_MAX. */
export function checkedPeriod(period: { from: Date; to: Date }): { from: Date; to: Date } {
  if (period.from >= period.to) {
    throw invalidRequest("parameter_invalid", "from must be before to.");
  }
  if (period.to.getTime() - period.from.getTime() > REPORT_PERIOD_DAYS_MAX * 86_400_000) {
    throw invalidRequest("parameter_invalid", `A report covers at most ${REPORT_PERIOD_DAYS_MAX} days.`);
  }
  return period;
}
