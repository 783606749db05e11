// A small client for Stratus that speaks the wire CloudKit JS speaks (docs/web.md): the session as
// `ckSession`, JSON bodies sent as text/plain (no CORS pre-flight), sign-in through the page an
// AUTHENTICATION_REQUIRED answer names (in a popup, or the whole page), asset uploads, device
// tokens and long-poll notifications. No build step: import it as an ES module.

const BUILD = "stratus-web-example";

/** A CloudKit error dictionary as an Error: `serverErrorCode`, `reason`, `redirectURL`… */
export class CloudKitError extends Error {
  constructor(status, body) {
    super(`${body.serverErrorCode ?? status}: ${body.reason ?? "the server's answer was not JSON"}`);
    this.status = status;
    Object.assign(this, body);
  }
}

export class StratusContainer {
  /** `baseURL`: where the server is; `containerIdentifier`, `environment` and `apiToken`: the container's. */
  constructor({ baseURL, containerIdentifier, environment = "development", apiToken }) {
    this.baseURL = baseURL.replace(/\/$/, "");
    this.containerIdentifier = containerIdentifier;
    this.environment = environment;
    this.apiToken = apiToken;
    this.sessionKey = `stratus-session:${containerIdentifier}`;
    this.session = localStorage.getItem(this.sessionKey);
  }

  get isSignedIn() { return this.session !== null; }

  /** Keeps a session; null forgets it. */
  setSession(token) {
    this.session = token;
    if (token === null) localStorage.removeItem(this.sessionKey); else localStorage.setItem(this.sessionKey, token);
  }

  /** After a full-page sign-in the page comes back with `?ckWebAuthToken=`: keep it and clean the URL. */
  takeSessionFromURL() {
    const url = new URL(window.location.href);
    const token = url.searchParams.get("ckWebAuthToken");
    if (!token) return false;
    this.setSession(token);
    url.searchParams.delete("ckWebAuthToken");
    window.history.replaceState(null, "", url.toString());
    return true;
  }

  /** The query every request carries, as CloudKit JS's. */
  query(extra = {}) {
    const parameters = new URLSearchParams({ ckAPIToken: this.apiToken, ...extra, ckjsBuildVersion: BUILD });
    if (this.session) parameters.set("ckSession", this.session);
    return parameters.toString();
  }

  /** One call: `path` below `/database/1/{container}/{environment}/` (or a whole URL); `body` is sent as text/plain JSON. */
  async call(path, body) {
    const url = path.startsWith("http") ? path : `${this.baseURL}/database/1/${this.containerIdentifier}/${this.environment}/${path}`;
    const options = body === undefined ? { method: "GET" } : { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify(body) };
    const response = await fetch(`${url}${url.includes("?") ? "&" : "?"}${this.query()}`, options);
    const rotated = response.headers.get("X-Apple-CloudKit-Session") ?? response.headers.get("X-Apple-CloudKit-Web-Auth-Token");
    if (rotated) this.setSession(rotated);
    const text = await response.text();
    let json;
    try { json = JSON.parse(text); } catch { json = { serverErrorCode: "UNEXPECTED_SERVER_RESPONSE", reason: text.slice(0, 200) }; }
    if (!response.ok) throw new CloudKitError(response.status, json);
    return json;
  }

  /** The signed-in user, or the AUTHENTICATION_REQUIRED error whose `redirectURL` signs one in. */
  async currentUser() {
    return this.call("public/users/current");
  }

  /** Signs in through the sign-in page in a popup; resolves with the session the page posts back. */
  signInWithPopup(redirectURL) {
    const url = new URL(redirectURL);
    // The server names the page's origin when the browser sent one (it does not on a GET).
    url.searchParams.set("origin", window.location.origin);
    const pageOrigin = url.origin;
    const popup = window.open(url.toString(), "stratus-sign-in", "width=480,height=680");
    if (!popup) return Promise.reject(new Error("the browser blocked the sign-in window"));
    return new Promise((resolve) => {
      const receive = (event) => {
        if (event.origin !== pageOrigin || typeof event.data?.ckSession !== "string") return;
        window.removeEventListener("message", receive);
        this.setSession(event.data.ckSession);
        resolve(event.data.ckSession);
      };
      window.addEventListener("message", receive);
    });
  }

  /** Signs in by sending the whole page to the sign-in page, which sends it back with `?ckWebAuthToken=`. */
  signInWithRedirect(redirectURL) {
    const url = new URL(redirectURL);
    url.searchParams.delete("origin");
    url.searchParams.set("callback", window.location.href);
    window.location.assign(url.toString());
  }

  signOut() { this.setSession(null); }

  /** A database of the signed-in user: "private", "shared" or "public". */
  database(scope) { return new StratusDatabase(this, scope); }

  /** A courier for this browser (CloudKit JS's `tokens/create`, at `device/1` as the library sends it). */
  async createPushToken() {
    const url = `${this.baseURL}/device/1/${this.containerIdentifier}/${this.environment}/tokens/create`;
    return this.call(url, { apnsEnvironment: this.environment });
  }

  /** Long-polls `webcourierURL`, calling `onNotification` with each notification, until `signal` aborts. */
  async listen(webcourierURL, onNotification, signal) {
    while (!signal?.aborted) {
      try {
        const response = await fetch(webcourierURL, { signal });
        if (response.status === 200) onNotification(await response.json());
        else if (response.status !== 204) await new Promise((done) => setTimeout(done, 2000));
      } catch (error) {
        if (signal?.aborted) return;
        await new Promise((done) => setTimeout(done, 2000));
      }
      await new Promise((done) => setTimeout(done, 10));
    }
  }
}

export class StratusDatabase {
  constructor(container, scope) {
    this.container = container;
    this.scope = scope;
  }

  call(path, body) { return this.container.call(`${this.scope}/${path}`, body); }

  async saveZone(zoneName) {
    return this.call("zones/modify", { operations: [{ operationType: "create", zone: { zoneID: { zoneName } } }] });
  }

  /** Saves records (`{recordName, recordType, recordChangeTag?, fields}`); each result is a record or an error dictionary. */
  async saveRecords(records, zoneName = "_defaultZone") {
    const operations = records.map((record) => ({ operationType: record.recordChangeTag ? "update" : "create", record }));
    return (await this.call("records/modify", { operations, zoneID: { zoneName } })).records;
  }

  async deleteRecords(recordNames, zoneName = "_defaultZone") {
    const operations = recordNames.map((recordName) => ({ operationType: "forceDelete", record: { recordName } }));
    return (await this.call("records/modify", { operations, zoneID: { zoneName } })).records;
  }

  async query(query, zoneName = "_defaultZone") {
    return (await this.call("records/query", { query, zoneID: { zoneName } })).records;
  }

  /** The zone's changes since `syncToken` (all of them without one): `{records, syncToken, moreComing}`. */
  async changes(zoneName, syncToken) {
    return this.call("records/changes", { zoneID: { zoneName }, ...(syncToken ? { syncToken } : {}) });
  }

  async saveSubscription(subscription) {
    return this.call("subscriptions/modify", { operations: [{ operationType: "create", subscription }] });
  }

  /** Uploads a file for a field of a new record, as CloudKit JS does; returns the value to save in the field. */
  async uploadAsset(file, recordType, fieldName, zoneName = "_defaultZone") {
    const { tokens } = await this.call("assets/upload", { tokens: [{ recordType, fieldName }], zoneID: { zoneName } });
    const response = await fetch(tokens[0].url, { method: "POST", body: file });
    if (!response.ok) throw new CloudKitError(response.status, await response.json());
    const { singleFile } = await response.json();
    return { recordName: tokens[0].recordName, value: singleFile };
  }
}
