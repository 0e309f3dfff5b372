/**
 * What `GET /version` and `GET /metadata` report. Clients of this API family compare the version
 * with the reference's release numbers to decide which endpoints and fields they may use
 * (python-gitlab's `gl.version()`, tools gating features on a minimum release), so forgekit reports
 * the reference release whose REST API it follows, as a plain `MAJOR.MINOR.PATCH` that every
 * version parser accepts, and names itself in `revision`.
 */

/** The reference release whose API forgekit serves. */
export const COMPATIBLE_API_VERSION = "17.0.0";

/** forgekit's own version (the `@forgekit/core` package version; a test keeps the two equal). */
export const FORGEKIT_VERSION = "0.1.0";

/** `{"version","revision"}` of `GET /version`. */
export function versionEntity() {
  return { version: COMPATIBLE_API_VERSION, revision: `forgekit-${FORGEKIT_VERSION}` };
}

/** `GET /metadata`: the version, the Kubernetes agent server (not provided: disabled) and the edition. */
export function metadataEntity(enterprise: boolean) {
  return {
    ...versionEntity(),
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise,
  };
}
