/**
 * The store conformance suite (DESIGN §8): every rule of ports/store.ts as vitest tests, run against
 * any Store implementation. Call it at the top level of a `*.test.ts` file.
 */
import { afterEach, beforeEach, describe } from "vitest";
import type { Store } from "../../ports/store.js";
import { accessTokenTests } from "./access-tokens.js";
import { activityTests } from "./activity.js";
import { concurrencyTests } from "./concurrency.js";
import { containerRemovalTests } from "./container-removal.js";
import type { ConformanceOptions, SuiteContext } from "./context.js";
import { emailTests } from "./emails.js";
import { errorTrackingTests } from "./error-tracking.js";
import { deadlockTests, firstWriteTests } from "./first-writes.js";
import { groupListTests } from "./group-list.js";
import { importTests } from "./imports.js";
import { iterationTests } from "./iterations.js";
import { labelTests } from "./labels.js";
import { memberTests } from "./members.js";
import { namespaceTests } from "./namespaces.js";
import { namespaceListTests } from "./namespace-list.js";
import { notificationSettingTests } from "./notification-settings.js";
import { paginationTests } from "./pagination.js";
import { projectListTests } from "./projects-list.js";
import { projectTests } from "./projects.js";
import { projectFactTests } from "./project-facts.js";
import { projectReadTests } from "./project-read.js";
import { protectedRefTests } from "./protected-refs.js";
import { reviewTests } from "./reviews.js";
import { statusesTests } from "./statuses.js";
import { mergeRequestReviewTests } from "./merge-request-reviews.js";
import { mergeRequestClosingIssueTests } from "./merge-request-closing-issues.js";
import { releaseTests } from "./releases.js";
import { uploadTests } from "./uploads.js";
import { discussionsTests } from "./discussions.js";
import { transactionTests } from "./transactions.js";
import { userTests } from "./users.js";
import { userActivityTests } from "./users-activity.js";
import { webHookTests } from "./webhooks.js";
import { userRemovalTests, userRenameTests } from "./users-removal.js";

export type { ConformanceOptions } from "./context.js";

/**
 * Registers the suite under `describe(name)`. `makeStore` is called before every test and must
 * return a new, migrated, empty store (ids need not restart); the suite closes it after the test.
 * `options.concurrency: false` leaves out the racing-caller tests.
 */
export function runStoreConformance(name: string, makeStore: () => Promise<Store>, options: ConformanceOptions = {}): void {
  describe(name, () => {
    let current: Store | null = null;
    const ctx: SuiteContext = {
      get store(): Store {
        if (current === null) throw new Error("the store is only available while a conformance test runs");
        return current;
      },
      options,
    };
    beforeEach(async () => {
      current = await makeStore();
    });
    afterEach(async () => {
      const store = current;
      current = null;
      await store?.close();
    });
    userTests(ctx);
    userActivityTests(ctx);
    webHookTests(ctx);
    userRemovalTests(ctx);
    userRenameTests(ctx);
    emailTests(ctx);
    namespaceTests(ctx);
    groupListTests(ctx);
    namespaceListTests(ctx);
    projectTests(ctx);
    projectFactTests(ctx);
    projectListTests(ctx);
    memberTests(ctx);
    containerRemovalTests(ctx);
    accessTokenTests(ctx);
    projectReadTests(ctx);
    notificationSettingTests(ctx);
    iterationTests(ctx);
    paginationTests(ctx);
    transactionTests(ctx);
    activityTests(ctx);
    errorTrackingTests(ctx);
    importTests(ctx);
    labelTests(ctx);
    reviewTests(ctx);
    discussionsTests(ctx);
    statusesTests(ctx);
    mergeRequestReviewTests(ctx);
    mergeRequestClosingIssueTests(ctx);
    releaseTests(ctx);
    uploadTests(ctx);
    protectedRefTests(ctx);
    if (options.concurrency !== false) concurrencyTests(ctx);
    if (options.concurrency !== false) firstWriteTests(ctx);
    if (options.concurrency !== false) deadlockTests(ctx);
  });
}
