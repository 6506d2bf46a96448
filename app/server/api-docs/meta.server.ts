import { z } from "zod";
import { defineArea, ok } from "./registry.server";

// /openapi.json: this document.

export default defineArea({
  tag: "meta",
  paths: {
    "/openapi.json": {
      get: { summary: "This document", auth: false, responses: { 200: ok("OpenAPI 3.1 document", z.looseObject({ openapi: z.string() })) } },
    },
  },
});
