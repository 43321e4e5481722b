/** What the till and the dashboard show alike: a shift's cash figures, its Z report, a day's net sales. */
export { CashFigures } from "./cash-figures.tsx";
export { type NetFigures, NetFiguresTable } from "./net-figures.tsx";
export { overShort, overShortClass } from "./over-short.ts";
export { MOVE_KINDS, tillNameOf, ZReportView } from "./z-report.tsx";
