// Style sheets are bundled by esbuild from their import; the import has no value.
declare module "*.css";
