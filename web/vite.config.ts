// Vite builds the client into the Python package that serves it (services/gateway/static),
// so `make run` needs no Node; `make web` rebuilds it. No CDN: everything is bundled.
import { defineConfig } from "vitest/config";

export default defineConfig({
  base: "/",
  build: {
    outDir: "../services/gateway/static",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npm run dev`: the gateway of a running `make run` answers the API calls
    proxy: { "/tavola.v1.": "http://127.0.0.1:8080", "/local": "http://127.0.0.1:8080" },
  },
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    environment: "node",
  },
});
