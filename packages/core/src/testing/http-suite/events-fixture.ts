/**
 * The world the events HTTP suites read: the seeded test instance plus a day of activity.
 *
 * In `grp/public-project` (alice Owner through `grp`): alice opens issue #1 "Public bug"; bob
 * comments on it; alice opens confidential issue #2 "Secret plan" and comments on it; alice pushes
 * to main; alice opens merge request !1, root merges it; alice creates milestone "v1". In
 * `grp/sub/private-project` (bob Developer) bob opens an issue; in `grp/internal-project` bob pushes a
 * new tag. `carol` is a member of nothing and has tokens with `read_user`, `api` and
 * `read_repository` scopes. Every step is one minute after the previous one, from 2024-05-02 10:00.
 */
import type { User } from "../../accounts/types.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";

/** A test instance with the activity above. */
export interface EventsWorld extends TestForgekit {
  carol: User;
  /** carol's tokens by scope. */
  carolTokens: { api: string; readUser: string; readRepository: string };
  /** alice's `read_user` token. */
  aliceReadUser: string;
}

const SHA1 = "1".repeat(40);
const SHA2 = "2".repeat(40);

/**
 * Builds the instance the events suites share: users, tokens of several scopes, projects and the events
 * recorded on them.
 */
export async function createEventsWorld(): Promise<EventsWorld> {
  const t = await createTestForgekit({ now: "2024-05-02T10:00:00.000Z" });
  const { alice, bob, root } = t.users;
  const carol = await t.createUser({ username: "carol" });
  const token = async (user: User, scopes: string[]) => (await t.createToken(user.id, { scopes })).plaintext;
  const carolTokens = { api: await token(carol, ["api"]), readUser: await token(carol, ["read_user"]), readRepository: await token(carol, ["read_repository"]) };
  const aliceReadUser = await token(alice, ["read_user"]);
  const p = t.projects.publicProject.id;
  const step = () => t.clock.advance(60_000);

  step();
  const bug = await must(t.fk.issues.create({ projectId: p, authorId: alice.id, title: "Public bug" }));
  step();
  await must(t.fk.notes.create({ on: { type: "Issue", projectId: p, iid: bug.iid }, authorId: bob.id, body: "Seen it too" }));
  step();
  const secret = await must(t.fk.issues.create({ projectId: p, authorId: alice.id, title: "Secret plan", confidential: true }));
  step();
  await must(t.fk.notes.create({ on: { type: "Issue", projectId: p, iid: secret.iid }, authorId: alice.id, body: "Hush" }));
  step();
  await must(t.fk.pushes.record({ projectId: p, authorId: alice.id, ref: "main", commitFrom: SHA1, commitTo: SHA2, commitCount: 2, commitTitle: "Fix the bug" }));
  step();
  const mr = await must(t.fk.mergeRequests.create({ projectId: p, authorId: alice.id, title: "Fix bug", sourceBranch: "fix", targetBranch: "main" }));
  step();
  await must(t.fk.mergeRequests.merge(p, mr.iid, root.id));
  step();
  await must(t.fk.milestones.create({ projectId: p, authorId: alice.id, title: "v1" }));
  step();
  await must(t.fk.issues.create({ projectId: t.projects.privateProject.id, authorId: bob.id, title: "Sub issue" }));
  step();
  await must(t.fk.pushes.record({ projectId: t.projects.internalProject.id, authorId: bob.id, ref: "v1.0", refType: "tag", commitTo: SHA2, commitCount: 0 }));
  return { ...t, carol, carolTokens, aliceReadUser };
}
