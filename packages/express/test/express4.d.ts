/** Express 4, installed as `express4` (npm:express@^4) so the adapter is tested on both majors. */
declare module "express4" {
  import type express from "express";

  const express4: typeof express;
  export default express4;
}
