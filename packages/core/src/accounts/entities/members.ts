/** JSON shape of a membership (reference `API::Entities::Member`: the user's basic fields plus the membership's). */
import type { User } from "../types.js";
import { iso, isoDate } from "./time.js";
import { userBasic } from "./users.js";

/** A member as the members API lists them: the user, the level and the membership dates. */
export interface MemberView {
  user: User;
  accessLevel: number;
  createdAt: Date;
  expiresAt: Date | null;
}

/** Reference `Member`. */
export function memberEntity(member: MemberView, baseUrl: string) {
  return Object.assign(userBasic(member.user, baseUrl), {
    access_level: member.accessLevel,
    created_at: iso(member.createdAt),
    expires_at: isoDate(member.expiresAt),
    membership_state: "active",
  });
}
