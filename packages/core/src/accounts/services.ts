/** The accounts services of one instance, built together from the configuration. */
import type { ForgekitConfig } from "../config.js";
import { repositoryRemoval, type RepositoryRemoval } from "../repositories/removal.js";
import { type GroupsService, groupsService } from "./groups.js";
import { type MembersService, membersService } from "./members.js";
import { type ProjectsService, projectsService } from "./projects.js";
import { type SettingsService, settingsService } from "./settings.js";
import { type TokensService, tokensService } from "./tokens.js";
import { type UsersService, usersService } from "./users.js";

/** Every accounts service. */
export interface AccountsServices {
  /** `fk.users`. */
  users: UsersService;
  /** `fk.groups`. */
  groups: GroupsService;
  /** `fk.projects`. */
  projects: ProjectsService;
  /** `fk.members`. */
  members: MembersService;
  /** `fk.tokens`. */
  tokens: TokensService;
  /** `fk.settings`. */
  settings: SettingsService;
}

/** Builds the accounts services over the configuration's store and runtime ports. */
export function accountsServices(config: ForgekitConfig, options: { removal?: RepositoryRemoval } = {}): AccountsServices {
  // One removal for both, so the instance registers its retry job once (forgekit.ts).
  const removal = options.removal ?? repositoryRemoval(config);
  return {
    users: usersService(config),
    groups: groupsService(config, removal),
    projects: projectsService(config, removal),
    members: membersService(config),
    tokens: tokensService(config),
    settings: settingsService(config),
  };
}
