/** A `.grammar-data` import: its file name beside the bundle (esbuild file loader), or its text (browser bundle). */
declare module '*.grammar-data' {
  const value: string;
  export default value;
}
