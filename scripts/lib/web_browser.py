"""Drives the web example (Examples/Web) in headless Chromium (scripts/check-web.sh sets the scene).

Each step is something a user of a web app does; each checks what the page shows and saves a
screenshot. It fails with the step's name on the first thing that is not as expected.
"""
import json
import os
import sys
import tempfile
import urllib.parse
import urllib.request

from browser import Walk
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

PAGE = os.environ["WEB_URL"]
SERVER = os.environ["STRATUS_URL"]
CONTAINER = os.environ["STRATUS_CONTAINER"]
API_TOKEN = os.environ["STRATUS_API_TOKEN"]
SHOTS = os.environ["WEB_SCREENSHOTS"]

walk = Walk(SHOTS, console_log=True)
browser = walk.browser
check, shot, wait_for = walk.check, walk.shot, walk.wait_for


def status():
    return browser.find_element(By.ID, "status").text


def items(list_id):
    # Read in one script: the page replaces a list's items as changes arrive.
    return browser.execute_script(f"return [...document.querySelectorAll('#{list_id} li')].map((item) => item.textContent);")


def sign_in_on_the_page():
    browser.find_element(By.ID, "username").send_keys("dana")
    browser.find_element(By.ID, "password").send_keys("web password")
    browser.find_element(By.ID, "sign-in").click()


def call(path, body, session):
    """A request of another client (not the page): the API as an app would call it."""
    query = urllib.parse.urlencode({"ckAPIToken": API_TOKEN, "ckWebAuthToken": session})
    request = urllib.request.Request(f"{SERVER}/database/1/{CONTAINER}/development/{path}?{query}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


try:
    walk.step = "signing in through the popup"
    browser.get(PAGE)
    wait_for(lambda: status() == "Signed out", "a new visitor is signed out")
    shot("signed-out")
    page_window = browser.current_window_handle
    browser.find_element(By.ID, "sign-in").click()
    wait_for(lambda: len(browser.window_handles) == 2, "the sign-in page opens in a popup")
    popup = [handle for handle in browser.window_handles if handle != page_window][0]
    browser.switch_to.window(popup)
    check("/web/signin" in browser.current_url, "the popup is the server's sign-in page")
    check(SERVER.split("//")[1] in browser.find_element(By.TAG_NAME, "strong").text, "it names the page that asked")
    shot("sign-in-page")
    sign_in_on_the_page()
    browser.switch_to.window(page_window)
    wait_for(lambda: len(browser.window_handles) == 1, "the popup closes once it handed the session over")
    wait_for(lambda: status().startswith("Signed in as _"), "the page is signed in")
    session = browser.execute_script(f"return localStorage.getItem('stratus-session:{CONTAINER}');")
    check(session, "the page keeps the session")
    shot("signed-in")

    walk.step = "saving notes"
    for title in ("Milk", "Bread"):
        browser.find_element(By.ID, "title").send_keys(title)
        browser.find_element(By.ID, "save").click()
        wait_for(lambda: title in items("notes"), f"{title} is listed")
    wait_for(lambda: any("WebNotes changed" in item for item in items("notifications")), "a notification arrives for the page's own save")
    shot("notes")

    walk.step = "saving a note with an encrypted detail"
    browser.find_element(By.ID, "title").send_keys("Safe")
    browser.find_element(By.ID, "detail").send_keys("code 1234")
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: "Safe (code 1234)" in items("notes"), "the note and its detail are listed")
    changes = call("private/changes/zone", {"zones": [{"zoneID": {"zoneName": "WebNotes"}}]}, session)
    details = [record["fields"]["detail"] for record in changes["zones"][0]["records"] if "detail" in record.get("fields", {})]
    check(details == [{"value": "code 1234", "type": "STRING", "isEncrypted": True}], f"the server answers it as encrypted: {details}")
    shot("encrypted-detail")

    walk.step = "finding a note by query"
    browser.find_element(By.ID, "search-text").send_keys("Bread")
    browser.find_element(By.ID, "search").click()
    wait_for(lambda: items("results") == ["Bread"], "the query finds Bread alone")

    walk.step = "syncing a change another device made"
    saved = call("private/records/modify", {"operations": [{"operationType": "create", "record": {
        "recordName": "from-phone", "recordType": "Note", "fields": {"title": {"value": "Eggs, from the phone"}}}}],
        "zoneID": {"zoneName": "WebNotes"}}, session)
    check(saved["records"][0].get("recordName") == "from-phone", f"the other client saved: {saved}")
    wait_for(lambda: "Eggs, from the phone" in items("notes"), "the notification brings the other device's note", seconds=20)
    shot("synced")

    walk.step = "uploading a file"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
        file.write("a shopping list\n" * 4)
    browser.find_element(By.ID, "file").send_keys(file.name)
    browser.find_element(By.ID, "upload").click()
    wait_for(lambda: browser.find_element(By.ID, "uploaded").text.endswith("(64 bytes)"), "the file is uploaded and saved")
    shot("uploaded")

    walk.step = "a narrow window"
    browser.set_window_size(375, 800)
    width = browser.execute_script("return document.documentElement.scrollWidth;")
    check(width <= 375, f"nothing overflows a phone's width ({width} px)")
    check(browser.find_element(By.ID, "save").is_displayed(), "the save button is on screen")
    shot("narrow")

    walk.step = "signing in through a whole-page redirect, narrow, with the keyboard"
    browser.find_element(By.ID, "sign-out").click()
    wait_for(lambda: status() == "Signed out", "signed out")
    browser.find_element(By.ID, "sign-in-page").click()
    wait_for(lambda: "/web/signin" in browser.current_url, "the page goes to the sign-in page")
    width = browser.execute_script("return document.documentElement.scrollWidth;")
    check(width <= 375, f"the sign-in page fits a phone's width ({width} px)")
    shot("sign-in-page-narrow")
    # The username field has the focus; Enter submits with the first button, Sign in.
    browser.switch_to.active_element.send_keys("dana", Keys.TAB, "web password", Keys.ENTER)
    wait_for(lambda: "/examples/web/index.html" in browser.current_url and status().startswith("Signed in as _"),
             "the sign-in page sends the page back, signed in")
    check("ckWebAuthToken" not in browser.current_url, "the page takes the token out of its URL")
    wait_for(lambda: "Eggs, from the phone" in items("notes"), "the notes are there again")
    shot("redirect-signed-in")
    browser.set_window_size(1280, 900)
    print("check-web: the web example signs in (popup and redirect), saves (an encrypted field too), queries, syncs, uploads and hears notifications")
except Exception as error:
    print(f"check-web failed: {error}", file=sys.stderr)
    for entry in browser.get_log("browser"):
        print(f"browser console: {entry['message']}", file=sys.stderr)
    shot("failure")
    sys.exit(1)
finally:
    browser.quit()
