"""Drives the Stratus web console in headless Chromium (scripts/check-console.sh sets the scene).

Every step is something an administrator does in a browser; each checks what the page shows and
saves a screenshot. It fails with the step's name on the first thing that is not as expected.
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

from browser import Walk
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE = os.environ["CONSOLE_URL"]
SHOTS = os.environ["CONSOLE_SCREENSHOTS"]
STRATUS = os.environ["STRATUS_BINARY"]
DATA = os.environ["STRATUS_DATA"]
CONTAINER = os.environ["STRATUS_CONTAINER"]

walk = Walk(SHOTS)
browser = walk.browser
check, shot = walk.check, walk.shot


def navigate(action):
    """Runs `action` (a click, a key press) and waits until the page it leads to has loaded.

    The old page is marked with a script variable; the new one has none. (Waiting for the old
    page's elements to go stale races chromedriver, which then reports "Node with given id does
    not belong to the document" instead of a stale element.)"""
    browser.execute_script("window.stratusOldPage = true;")
    action()

    def loaded(driver):
        try:
            return driver.execute_script("return window.stratusOldPage === undefined && document.readyState === 'complete';")
        except WebDriverException:
            return False  # between the two documents

    WebDriverWait(browser, 10).until(loaded)


def text():
    return browser.find_element(By.TAG_NAME, "body").text


def stratus(*arguments):
    return subprocess.run([STRATUS, *arguments, "--data", DATA], check=True, capture_output=True, text=True).stdout


try:
    walk.step = "a failed sign-in"
    browser.get(BASE + "/console")
    check(browser.current_url.endswith("/console/signin"), "the console sends a visitor to sign in")
    navigate(lambda: browser.switch_to.active_element.send_keys("root", Keys.TAB, "wrong password", Keys.ENTER))
    check("wrong password" in text(), "the refusal is shown")
    shot("signin-failed")

    walk.step = "signing in with the keyboard alone"
    browser.get(BASE + "/console/signin")
    navigate(lambda: browser.switch_to.active_element.send_keys("root", Keys.TAB, "console password", Keys.ENTER))
    check(browser.current_url.endswith("/console/containers"), "signed in, the containers page opens")
    check(CONTAINER in text(), "the containers are listed")
    shot("containers")

    walk.step = "creating a container"
    browser.find_element(By.ID, "new-container").send_keys("iCloud.test.console")
    navigate(browser.find_element(By.ID, "create-container").click)
    check("iCloud.test.console" in browser.find_element(By.TAG_NAME, "h1").text, "the new container's page opens")
    check(len(browser.find_element(By.ID, "api-token").text) == 64, "its API token is shown")
    shot("container")
    check("iCloud.test.console" in stratus("container", "list"), "the CLI lists it too")

    walk.step = "a form without its CSRF token"
    cookie = browser.get_cookie("stratus_console")
    check(cookie is not None and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict", "the session cookie is HttpOnly and SameSite=Strict")
    forged = urllib.request.Request(BASE + "/console/containers", data=b"id=iCloud.test.forged", method="POST",
                                    headers={"Cookie": f"stratus_console={cookie['value']}",
                                             "Content-Type": "application/x-www-form-urlencoded"})
    try:
        urllib.request.urlopen(forged)
        check(False, "a forged form was accepted")
    except urllib.error.HTTPError as error:
        check(error.code == 403, f"a forged form is refused with 403, not {error.code}")
    check("iCloud.test.forged" not in stratus("container", "list"), "nothing was created")

    walk.step = "deploying a schema change"
    browser.get(BASE + "/console/containers/" + CONTAINER)
    navigate(browser.find_element(By.ID, "schema-link").click)
    area = browser.find_element(By.ID, "schema-text")
    area.clear()
    area.send_keys("DEFINE SCHEMA\n    RECORD TYPE Item (\n        name STRING QUERYABLE SORTABLE,\n"
                   "        qty  INT64 QUERYABLE SORTABLE,\n        note STRING\n    );\n")
    navigate(browser.find_element(By.ID, "import-schema").click)
    check("Development has the imported schema." in text(), "the schema is imported into development")
    preview = browser.find_element(By.ID, "deploy-preview").text
    check("+ field Item.note STRING" in preview, f"the deploy's changes are shown first: {preview}")
    shot("schema")
    navigate(browser.find_element(By.ID, "deploy").click)
    check("Deployed to production" in text(), "the deploy is confirmed")
    check("note" in stratus("schema", "export", "--environment", "production", "--container", CONTAINER), "production has the new field")
    check("Production has development's schema." in text(), "nothing is left to deploy")

    walk.step = "browsing to a record"
    browser.get(BASE + "/console/containers/" + CONTAINER)
    navigate(browser.find_element(By.ID, "data-link").click)
    check("apricot" in text() and "bread" in text(), "the zone's records are listed")
    shot("data")
    navigate(browser.find_element(By.LINK_TEXT, "apricot").click)
    check(browser.find_element(By.TAG_NAME, "h1").text == "apricot", "the record page opens")
    check("INT64" in text() and "9" in text(), "its fields are shown with their types")
    shot("record")

    walk.step = "a query with two filters and a sort"
    browser.get(BASE + "/console/containers/" + CONTAINER + "/query?environment=development&database=public")
    browser.find_element(By.ID, "query-type").send_keys("Item")
    browser.find_element(By.ID, "field1").send_keys("name")
    Select(browser.find_element(By.ID, "comparator1")).select_by_visible_text("BEGINS_WITH")
    browser.find_element(By.ID, "value1").send_keys("a")
    browser.find_element(By.ID, "field2").send_keys("qty")
    Select(browser.find_element(By.ID, "comparator2")).select_by_visible_text("GREATER_THAN")
    browser.find_element(By.ID, "value2").send_keys("2")
    browser.find_element(By.ID, "sort").send_keys("qty")
    Select(browser.find_element(By.ID, "order")).select_by_visible_text("descending")
    navigate(browser.find_element(By.ID, "run-query").click)
    names = [row.find_element(By.TAG_NAME, "a").text for row in browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")]
    check(names == ["apricot", "apple"], f"the query answers apricot then apple, not {names}")
    shot("query")

    walk.step = "editing a record"
    browser.get(BASE + f"/console/containers/{CONTAINER}/record?environment=development&database=public&zone=_defaultZone&name=bread")
    field = browser.find_element(By.ID, "field-qty")
    field.clear()
    field.send_keys("8")
    navigate(browser.find_element(By.ID, "save").click)
    check("Saved." in text() and "8" in text(), "the edit is saved and shown")
    saved = json.loads(stratus("records", "lookup", "bread", "--container", CONTAINER))
    check(saved["records"][0]["fields"]["qty"]["value"] == 8, "the server has the new value")

    walk.step = "a conflict"
    browser.get(BASE + f"/console/containers/{CONTAINER}/record?environment=development&database=public&zone=_defaultZone&name=bread")
    stale_tag = browser.find_element(By.ID, "change-tag").text
    meanwhile = {"operations": [{"operationType": "forceUpdate", "record": {
        "recordName": "bread", "recordType": "Item", "fields": {"name": {"value": "bread"}, "qty": {"value": 100}}}}]}
    subprocess.run([STRATUS, "records", "save", "--file", "-", "--data", DATA, "--container", CONTAINER],
                   input=json.dumps(meanwhile), check=True, capture_output=True, text=True)
    field = browser.find_element(By.ID, "field-qty")
    field.clear()
    field.send_keys("5")
    navigate(browser.find_element(By.ID, "save").click)
    check(browser.find_element(By.ID, "conflict").is_displayed(), "the conflict is shown")
    check("100" in text() and browser.find_element(By.ID, "change-tag").text != stale_tag, "with the record the server has now")
    shot("conflict")

    walk.step = "a record's history and restoring a version"
    browser.get(BASE + f"/console/containers/{CONTAINER}/record?environment=development&database=public&zone=_defaultZone&name=bread")
    navigate(browser.find_element(By.ID, "history-link").click)
    versions = browser.find_element(By.ID, "versions").text
    check("qty: 8 → 100" in versions and "qty: 7 → 8" in versions, f"each version shows what it changed: {versions}")
    shot("history")
    navigate(browser.find_elements(By.CSS_SELECTOR, "button.restore-version")[0].click)
    check("restored to version" in text(), "the restore is confirmed")
    restored = json.loads(stratus("records", "lookup", "bread", "--container", CONTAINER))
    check(restored["records"][0]["fields"]["qty"]["value"] == 8, "the server has the version's value again")

    walk.step = "undeleting from the recycle bin"
    navigate(browser.find_element(By.ID, "delete-record").click)
    check("bread was deleted." in text(), "the deletion is confirmed")
    navigate(browser.find_element(By.ID, "recovery-link").click)
    check("bread" in browser.find_element(By.ID, "recycle-bin").text, "the recycle bin lists the deleted record")
    shot("recycle-bin")
    navigate(browser.find_element(By.CSS_SELECTOR, "button.undelete").click)
    check("bread was undeleted" in text(), "the undelete is confirmed")
    back = json.loads(stratus("records", "lookup", "bread", "--container", CONTAINER))
    check(back["records"][0]["fields"]["qty"]["value"] == 8, "the record is back as it was")
    browser.get(BASE + "/console/activity")
    check("history.restore" in browser.find_element(By.ID, "audit").text, "each restore is in the audit log")

    walk.step = "deleting a user"
    browser.get(BASE + f"/console/containers/{CONTAINER}/users")
    check("carol" in text(), "the user is listed")
    browser.find_element(By.ID, "confirm-carol").send_keys("carol")
    navigate(browser.find_element(By.ID, "delete-carol").click)
    check("carol and their private data are deleted" in text(), "the deletion is confirmed")
    check("carol" not in stratus("user", "list", "--container", CONTAINER), "the CLI no longer lists carol")
    shot("users")

    walk.step = "a change made through the API appearing live"
    navigate(browser.find_element(By.ID, "activity-link").click)
    WebDriverWait(browser, 10).until(lambda driver: "Live" in driver.find_element(By.ID, "live").text)
    api_token = stratus("container", "token", "--container", CONTAINER).strip().splitlines()[-1]
    signup = urllib.request.Request(f"{BASE}/auth/1/{CONTAINER}/development/signup?ckAPIToken={api_token}", method="POST",
                                    data=json.dumps({"username": "dave", "password": "dave password"}).encode())
    web_token = json.load(urllib.request.urlopen(signup))["ckWebAuthToken"]
    save = {"operations": [{"operationType": "create", "record": {"recordName": "live-note", "recordType": "Note",
                                                                   "fields": {"title": {"value": "made through the API"}}}}]}
    modify = urllib.request.Request(
        f"{BASE}/database/1/{CONTAINER}/development/private/records/modify?ckAPIToken={api_token}"
        f"&ckWebAuthToken={urllib.parse.quote(web_token, safe='')}", method="POST", data=json.dumps(save).encode())
    urllib.request.urlopen(modify).read()
    WebDriverWait(browser, 10).until(lambda driver: "live-note" in driver.find_element(By.ID, "changes").text)
    check(browser.find_element(By.CSS_SELECTOR, "#changes tr.new").text.count("live-note") == 1, "the change was pushed into the page")
    shot("activity")
    browser.get(BASE + "/console/activity")
    check("/records/modify?ckAPIToken=REDACTED" in text(), "the request is in the recent requests, its tokens redacted")
    check(web_token not in browser.page_source and api_token not in browser.page_source, "no token shows")

    walk.step = "a user's page"
    browser.get(BASE + f"/console/containers/{CONTAINER}/users")
    navigate(browser.find_element(By.LINK_TEXT, "dave").click)
    check(browser.find_element(By.TAG_NAME, "h1").text == "dave", "the user's page opens")
    check("_defaultZone" in browser.find_element(By.ID, "user-zones").text, "their zones are listed")
    shot("user")

    walk.step = "a narrow window"
    browser.set_window_size(390, 844)
    browser.get(BASE + "/console/containers/" + CONTAINER + "/data?environment=development&database=public")
    overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, f"the page fits the width ({overflow}px too wide)")
    shot("data-narrow")

    walk.step = "signing out"
    browser.set_window_size(1280, 900)
    browser.get(BASE + "/console/containers")
    navigate(browser.find_element(By.CSS_SELECTOR, "header form button").click)
    check(browser.current_url.endswith("/console/signin"), "signed out, the sign-in page opens")
    browser.get(BASE + "/console/containers")
    check(browser.current_url.endswith("/console/signin"), "the old session opens nothing")
    print(f"console: every step passed; screenshots in {SHOTS}")
except Exception as error:
    shot("failure")
    print(f"console check failed at {walk.step}: {error}", file=sys.stderr)
    sys.exit(1)
finally:
    browser.quit()
