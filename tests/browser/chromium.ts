// Debian's Chromium, headless, driven by playwright-core (which never
// downloads a browser of its own), with a fresh profile that goes with it.

import { type BrowserContext, chromium } from "playwright-core";

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/** The flags the course's browser test runs Chromium with. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];

/** A headless Chromium with a profile of its own, closed and removed on dispose. */
export interface Chromium extends AsyncDisposable {
  context: BrowserContext;
}

/** Launch Chromium with a new, empty profile folder. */
export async function launchChromium(): Promise<Chromium> {
  const profile = await Deno.makeTempDir({ prefix: "chromium-profile-" });
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 900 },
    });
    return {
      context,
      [Symbol.asyncDispose]: async () => {
        await context.close();
        await Deno.remove(profile, { recursive: true });
      },
    };
  } catch (error) {
    await Deno.remove(profile, { recursive: true });
    throw error;
  }
}
