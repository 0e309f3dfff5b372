/** The accounts HTTP suites: authentication, sudo, users, projects, groups, impersonation tokens. */
import type { HttpSuite } from "../http-harness.js";
import { authenticationSuite } from "./accounts-auth.js";
import { groupsSuite } from "./accounts-groups.js";
import { impersonationTokensSuite } from "./accounts-impersonation.js";
import { projectsSuite } from "./accounts-projects.js";
import { sudoSuite, usersSuite } from "./accounts-users.js";
import { usersAdminSuite } from "./accounts-users-admin.js";
import { userActivitySuite } from "./accounts-user-activity.js";
import { emailsSuite } from "./accounts-emails.js";
import { personalAccessTokensSuite } from "./accounts-tokens.js";
import { resourceAccessTokensSuite } from "./accounts-resource-tokens.js";
import { groupWritesSuite } from "./accounts-group-writes.js";
import { projectWritesSuite } from "./accounts-project-writes.js";
import { membersSuite } from "./accounts-members.js";
import { expiredMembersSuite } from "./accounts-expired-members.js";
import { projectTruthSuite } from "./accounts-project-truth.js";
import { projectFeaturesEnforcedSuite } from "./accounts-project-features-enforced.js";
import { projectTruthGitSuite } from "./accounts-project-truth-git.js";
import { projectTruthFactsSuite } from "./accounts-project-truth-facts.js";

export { authenticationSuite } from "./accounts-auth.js";
export { groupsSuite } from "./accounts-groups.js";
export { impersonationTokensSuite } from "./accounts-impersonation.js";
export { projectsSuite } from "./accounts-projects.js";
export { sudoSuite, usersSuite } from "./accounts-users.js";
export { usersAdminSuite } from "./accounts-users-admin.js";
export { userActivitySuite } from "./accounts-user-activity.js";
export { emailsSuite } from "./accounts-emails.js";
export { personalAccessTokensSuite } from "./accounts-tokens.js";
export { resourceAccessTokensSuite } from "./accounts-resource-tokens.js";
export { groupWritesSuite } from "./accounts-group-writes.js";
export { projectWritesSuite } from "./accounts-project-writes.js";
export { membersSuite } from "./accounts-members.js";
export { expiredMembersSuite } from "./accounts-expired-members.js";
export { projectTruthSuite } from "./accounts-project-truth.js";
export { projectFeaturesEnforcedSuite } from "./accounts-project-features-enforced.js";
export { projectTruthGitSuite } from "./accounts-project-truth-git.js";
export { projectTruthFactsSuite } from "./accounts-project-truth-facts.js";

/** Every accounts suite, for adapters to run. */
export const accountsSuites: readonly HttpSuite[] = [authenticationSuite, sudoSuite, usersSuite, projectsSuite, groupsSuite, impersonationTokensSuite, usersAdminSuite, userActivitySuite, emailsSuite, personalAccessTokensSuite, resourceAccessTokensSuite, groupWritesSuite, projectWritesSuite, membersSuite, expiredMembersSuite, projectTruthSuite, projectFeaturesEnforcedSuite, projectTruthGitSuite, projectTruthFactsSuite];
