/**
 * Every HTTP suite of core, conventions first, then the capabilities. The root mounts of the express
 * and koa adapters, the fetch handler and the node handler each run this whole list; the sub-path
 * mounts run the conventions.
 */
import type { HttpSuite } from "../http-harness.js";
import { accountsSuites } from "./accounts.js";
import { activitySuites } from "./activity.js";
import { conventionSuites } from "./conventions.js";
import { eventsSuites } from "./events.js";
import { gitHttpSuite } from "./git-http.js";
import { gitHttpInputSuite } from "./git-http-input.js";
import { oauthSuites } from "./oauth.js";
import { errorTrackingSuites } from "./error-tracking-suites.js";
import { groupIterationsSuite } from "./iterations-group.js";
import { importsSuite } from "./imports.js";
import { notificationSettingsGlobalSuite } from "./notifications-global.js";
import { notificationSettingsSourcesSuite, notificationSettingsTierSuite } from "./notifications-sources.js";
import { unstorableInputSuite } from "./unstorable-input.js";
import { instanceSuite } from "./instance.js";
import { labelsSuite } from "./labels.js";
import { groupLabelsSuite } from "./labels-group.js";
import { labelPromotionSuite } from "./labels-promote.js";
import { repositoryApiSuite } from "./repository-api.js";
import { mergeRequestsSuite } from "./merge-requests.js";
import { protectedRefsSuites } from "./protected-refs.js";
import { snippetsSuite } from "./snippets.js";
import { statusesSuite } from "./statuses.js";
import { mergeRequestsAutoMergeSuite } from "./merge-requests-automerge.js";
import { mergeRequestVersionsSuite } from "./merge-request-versions.js";
import { mergeRequestClosingSuite } from "./merge-request-closing.js";
import { issueClosedBySuite } from "./issue-closed-by.js";
import { mergeRequestMilestonesSuite } from "./merge-request-milestones.js";
import { mergeRequestDiscussionLockSuite } from "./merge-request-discussion-lock.js";
import { mergeRequestSquashSuite } from "./merge-request-squash.js";
import { mergeRequestApprovalsSuite } from "./merge-request-approvals.js";
import { mergeRequestMergeChecksSuite } from "./merge-requests-merge-checks.js";
import { releasesSuite } from "./releases.js";
import { releaseTagsSuite } from "./release-tags.js";
import { milestoneDatesSuite } from "./milestone-dates.js";
import { uploadsSuite } from "./uploads.js";
import { namespacesSuite, namespacesTierSuite } from "./namespaces.js";
import { storageMovesSuite, storageMovesTierSuite } from "./storage-moves.js";
import { discussionsSuite } from "./discussions.js";
import { webHooksSuite } from "./webhooks.js";
import { webHookDeliverySuite } from "./webhooks-delivery.js";
import { webHookReleaseDeliverySuite } from "./webhooks-release-delivery.js";
import { webHookMemberDeliverySuite } from "./webhooks-member-delivery.js";
import { webHookChangesDeliverySuite } from "./webhooks-changes-delivery.js";

/**
 * Every HTTP conformance suite (conventions, accounts, events, activity, OAuth, …): run them all against
 * an adapter or store with one harness.
 */
export const allHttpSuites: readonly HttpSuite[] = [
  ...conventionSuites,
  ...accountsSuites,
  ...eventsSuites,
  ...activitySuites,
  ...oauthSuites,
  ...errorTrackingSuites,
  notificationSettingsGlobalSuite,
  notificationSettingsSourcesSuite,
  notificationSettingsTierSuite,
  groupIterationsSuite,
  importsSuite,
  unstorableInputSuite,
  instanceSuite,
  gitHttpSuite,
  gitHttpInputSuite,
  repositoryApiSuite,
  mergeRequestsSuite,
  statusesSuite,
  mergeRequestsAutoMergeSuite,
  mergeRequestVersionsSuite,
  mergeRequestClosingSuite,
  issueClosedBySuite,
  mergeRequestMilestonesSuite,
  mergeRequestDiscussionLockSuite,
  mergeRequestSquashSuite,
  mergeRequestApprovalsSuite,
  mergeRequestMergeChecksSuite,
  snippetsSuite,
  storageMovesSuite,
  storageMovesTierSuite,
  labelsSuite,
  groupLabelsSuite,
  labelPromotionSuite,
  releasesSuite,
  releaseTagsSuite,
  milestoneDatesSuite,
  uploadsSuite,
  namespacesSuite,
  namespacesTierSuite,
  ...protectedRefsSuites,
  discussionsSuite,
  webHooksSuite,
  webHookDeliverySuite,
  webHookReleaseDeliverySuite,
  webHookMemberDeliverySuite,
  webHookChangesDeliverySuite,
];
