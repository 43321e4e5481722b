/**
 * Where a shift's Z report opens (then the shift's id). Its own file: the app routes to the report
 * without loading the drawer's or the report's chunk (web/build.ts).
 */
export const Z_REPORT_PATH = "/till/z/";
