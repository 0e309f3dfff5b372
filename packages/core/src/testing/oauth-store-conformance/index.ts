/**
 * The OAuth store conformance suite (DESIGN §8): every `OAuthStore` implementation runs it.
 * Call inside a vitest test file: `runOAuthStoreConformance("sqlite", () => makeStore())`.
 */
import { describe } from "vitest";
import { applicationTests } from "./applications.js";
import { codeTests } from "./codes.js";
import { consentTests } from "./consents.js";
import type { MakeOAuthStore } from "./fixtures.js";
import { keyAndTransactionTests } from "./keys-and-transactions.js";
import { tokenTests } from "./tokens.js";

/** Options of the OAuth store conformance suite. */
export interface OAuthStoreConformanceOptions {
  /** How many concurrent callers the race tests start (default 20). */
  races?: number;
}

/** Registers the suite under `describe(name)`; `make` must return a fresh, empty store each time. */
export function runOAuthStoreConformance(name: string, make: MakeOAuthStore, options: OAuthStoreConformanceOptions = {}): void {
  const races = options.races ?? 20;
  describe(`OAuth store conformance: ${name}`, () => {
    applicationTests(make);
    codeTests(make, races);
    tokenTests(make, races);
    keyAndTransactionTests(make, races);
    consentTests(make, races);
  });
}

export type { MakeOAuthStore };
