// The example's page: notes in a zone of the user's private database, kept in sync through the
// change feed and long-poll notifications. Open it as /examples/web/index.html?container=…&apiToken=…
import { StratusContainer, CloudKitError } from "./stratus.js";

const ZONE = "WebNotes";
const page = new URL(window.location.href);
const $ = (id) => document.getElementById(id);
const status = (text, isError = false) => { $("status").textContent = text; $("status").className = isError ? "error" : ""; };

const containerIdentifier = page.searchParams.get("container");
const apiToken = page.searchParams.get("apiToken");
if (!containerIdentifier || !apiToken) {
  status("Open this page with ?container=<container>&apiToken=<its API token> (stratus container token).", true);
  throw new Error("no container or API token in the page's URL");
}
const container = new StratusContainer({ baseURL: page.searchParams.get("server") ?? window.location.origin, containerIdentifier, apiToken,
                                         environment: page.searchParams.get("environment") ?? "development" });
const database = container.database("private");
const notes = new Map();
let listening = null;
let redirectURL = null;

function show(list, records) {
  $(list).replaceChildren(...records.map((record) => {
    const item = document.createElement("li");
    const detail = record.fields?.detail?.value;
    item.textContent = (record.fields?.title?.value ?? record.recordName) + (detail ? ` (${detail})` : "");
    return item;
  }));
}

/** Takes in the zone's changes since the last sync (all of them the first time). */
async function sync() {
  const key = `stratus-example-token:${containerIdentifier}`;
  let more = true;
  while (more) {
    const page = await database.changes(ZONE, localStorage.getItem(key) ?? undefined);
    for (const record of page.records ?? []) {
      if (record.deleted) notes.delete(record.recordName); else if (record.recordType === "Note") notes.set(record.recordName, record);
    }
    localStorage.setItem(key, page.syncToken);
    more = page.moreComing;
  }
  show("notes", [...notes.values()].sort((a, b) => a.created.timestamp - b.created.timestamp));
}

/** Everything a signed-in page starts: the zone, its subscription, the notifications, the first sync. */
async function start(user) {
  status(`Signed in as ${user.userRecordName}`);
  $("sign-in").hidden = $("sign-in-page").hidden = true;
  $("sign-out").hidden = false;
  $("app").hidden = false;
  await database.saveZone(ZONE);
  await database.saveSubscription({ subscriptionID: "web-notes", subscriptionType: "zone", zoneID: { zoneName: ZONE } });
  const { webcourierURL } = await container.createPushToken();
  listening?.abort();
  listening = new AbortController();
  container.listen(webcourierURL, (notification) => {
    const item = document.createElement("li");
    const zone = notification.ck?.fet?.zid;
    item.textContent = zone ? `${zone} changed` : "catching up";
    $("notifications").prepend(item);
    sync().catch(report);
  }, listening.signal);
  await sync();
}

function report(error) {
  status(error instanceof CloudKitError ? error.message : String(error), true);
}

async function begin() {
  container.takeSessionFromURL();
  try {
    await start(await container.currentUser());
  } catch (error) {
    if (!(error instanceof CloudKitError) || error.serverErrorCode !== "AUTHENTICATION_REQUIRED") return report(error);
    container.signOut();
    redirectURL = error.redirectURL;
    status("Signed out");
    $("sign-in").hidden = $("sign-in-page").hidden = false;
    $("sign-out").hidden = $("app").hidden = true;
  }
}

$("sign-in").addEventListener("click", async () => {
  try {
    await container.signInWithPopup(redirectURL);
    await begin();
  } catch (error) { report(error); }
});
$("sign-in-page").addEventListener("click", () => container.signInWithRedirect(redirectURL));
$("sign-out").addEventListener("click", () => {
  listening?.abort();
  container.signOut();
  notes.clear();
  localStorage.removeItem(`stratus-example-token:${containerIdentifier}`);
  begin();
});
$("note-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const fields = { title: { value: $("title").value } };
    // A private detail is an encrypted field: sent with its type and isEncrypted, as CloudKit asks.
    if ($("detail").value) fields.detail = { value: $("detail").value, type: "STRING", isEncrypted: true };
    const [saved] = await database.saveRecords([{ recordName: crypto.randomUUID(), recordType: "Note", fields }], ZONE);
    if (saved.serverErrorCode) throw new CloudKitError(400, saved);
    $("title").value = $("detail").value = "";
    await sync();
  } catch (error) { report(error); }
});
$("sync").addEventListener("click", () => sync().catch(report));
$("search-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const query = { recordType: "Note", filterBy: [{ fieldName: "title", comparator: "EQUALS", fieldValue: { value: $("search-text").value } }] };
    show("results", await database.query(query, ZONE));
  } catch (error) { report(error); }
});
$("upload-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const file = $("file").files[0];
    const { recordName, value } = await database.uploadAsset(file, "Attachment", "file", ZONE);
    const [saved] = await database.saveRecords([{ recordName, recordType: "Attachment", fields: { name: { value: file.name }, file: { value } } }], ZONE);
    if (saved.serverErrorCode) throw new CloudKitError(400, saved);
    $("uploaded").textContent = `Uploaded ${file.name} (${saved.fields.file.value.size} bytes)`;
  } catch (error) { report(error); }
});

begin();
