/** What the till and the dashboard show alike: a shift's cash figures and its Z report. */
export { CashFigures } from "./cash-figures.tsx";
export { overShort, overShortClass } from "./over-short.ts";
export { MOVE_KINDS, tillNameOf, ZReportView } from "./z-report.tsx";
