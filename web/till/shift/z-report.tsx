import { ZReportView } from "../../reports/index.ts";
import { Link } from "../../ui/index.ts";

/**
 * The Z report of a shift, a till page printed by the browser: the report the dashboard shows too
 * (web/reports). A till page rather than a server-rendered one: the report needs the till's session
 * (it is not public like a receipt).
 */
export function ZReport(props: { shiftId: string }) {
  return (
    <main id="main" class="z-report-page" tabIndex={-1}>
      <ZReportView shiftId={props.shiftId} nav={<Link href="/till/drawer">Back to the drawer</Link>} />
    </main>
  );
}
