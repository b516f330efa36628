// What the access repositories' contract tests need to exist before they run: owners, accounts, spaces with their
// modules, and operator credentials, which the operator's actions write (outside these repositories). Each backend
// under test implements it with its own statements.

export interface FixtureOwner {
  id: string;
  name?: string;
  email?: string | null;
  readOnly?: boolean;
  deletedAt?: string | null;
}

export interface FixtureSpace {
  id: string;
  ownerId: string | null;
  accountId: string;
  modules?: string[];
  apiEnabled?: boolean;
  apiSettings?: string;
  trialEndsAt?: string | null;
}

export interface AccessFixture {
  owner(owner: FixtureOwner): Promise<void>;
  account(account: { id: string; ownerId: string; credits?: number }): Promise<void>;
  space(space: FixtureSpace): Promise<void>;
  operator(credential: { id: string; digest: Buffer; revokedAt?: string | null }): Promise<void>;
}
