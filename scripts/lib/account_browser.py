"""Drives the "your account" page (/auth/1/{container}/{environment}/web/account) in headless Chromium
(scripts/check-web.sh sets the scene: a server and the user dana). Dana signs in on the page, sees another
device's session and signs it out; her sign-in is then made old (its proof's time written back to 1970 in
the server's database, so nothing waits for the window to pass), she is asked to confirm before changing
her password, confirms, changes it, and signs out. It fails with the step's name on the first thing that is
not as expected.
"""
import json
import os
import sqlite3
import sys
import urllib.error
import urllib.parse
import urllib.request

from browser import Walk
from selenium.webdriver.common.by import By

SERVER = os.environ["STRATUS_URL"]
CONTAINER = os.environ["STRATUS_CONTAINER"]
API_TOKEN = os.environ["STRATUS_API_TOKEN"]
PAGE = f"{SERVER}/auth/1/{CONTAINER}/development/web/account?ckAPIToken={API_TOKEN}"
DATABASE = os.environ["STRATUS_DATABASE"]

walk = Walk(os.environ["WEB_SCREENSHOTS"])
browser = walk.browser
check, shot, text, wait_for = walk.check, walk.shot, walk.text, walk.wait_for


def api(method, path, body=None, token=None, agent="account-check"):
    """Another client's request: its status and answer."""
    query = urllib.parse.urlencode({"ckAPIToken": API_TOKEN})
    headers = {"Content-Type": "application/json", "User-Agent": agent}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{SERVER}{path}?{query}", data=None if body is None else json.dumps(body).encode(),
                                     headers=headers, method=method)
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


try:
    walk.step = "signing in on the account page"
    browser.get(PAGE)
    browser.find_element(By.ID, "username").send_keys("dana")
    browser.find_element(By.ID, "password").send_keys("web password")
    browser.find_element(By.ID, "sign-in").click()
    wait_for(lambda: text("username") == "dana", "the page shows dana's account")
    check("Password" in text("methods"), "it lists the password as a sign-in method")

    walk.step = "signing out another device"
    status, phone = api("POST", f"/auth/1/{CONTAINER}/development/signin", {"username": "dana", "password": "web password"}, agent="Phone/1.0 (check-web)")
    check(status == 200, f"the phone signs in: {phone}")
    browser.get(PAGE)
    rows = browser.find_elements(By.CSS_SELECTOR, "#sessions tbody tr")
    phone_rows = [row for row in rows if "Phone/1.0 (check-web)" in row.text]
    check(len(phone_rows) == 1, "the phone's session is listed with its device")
    check(any("This device" in row.text for row in rows), "the page's own session is marked")
    shot("account")
    phone_rows[0].find_element(By.TAG_NAME, "button").click()
    wait_for(lambda: "signed out" in text("notice"), "the page says the device is signed out")
    check("Phone/1.0 (check-web)" not in text("sessions"), "the phone is no longer listed")
    status, _ = api("GET", f"/database/1/{CONTAINER}/development/private/zones/list", token=phone["ckWebAuthToken"])
    check(status == 401, f"the phone's session no longer works (HTTP {status})")

    walk.step = "changing the password needs fresh proof"
    with sqlite3.connect(DATABASE, timeout=30) as database:
        database.execute("UPDATE sessions SET proven_at = 0 WHERE user_record_name = (SELECT user_record_name FROM users WHERE username = 'dana')")
    browser.find_element(By.ID, "new-password").send_keys("a brand new password")
    browser.find_element(By.ID, "change-password").click()
    wait_for(lambda: "Confirm it's you first" in text("error"), "a stale sign-in is asked to confirm first")
    shot("account-confirm")
    browser.find_element(By.ID, "confirm-password").send_keys("web password")
    browser.find_element(By.ID, "confirm").click()
    wait_for(lambda: "Thank you" in text("notice"), "the password confirms it")
    browser.find_element(By.ID, "new-password").send_keys("a brand new password")
    browser.find_element(By.ID, "change-password").click()
    wait_for(lambda: "password is changed" in text("notice"), "the password is changed once confirmed")
    status, _ = api("POST", f"/auth/1/{CONTAINER}/development/signin", {"username": "dana", "password": "a brand new password"})
    check(status == 200, "the new password signs in")

    walk.step = "a narrow window, and signing out"
    browser.set_window_size(375, 800)
    width = browser.execute_script("return document.documentElement.scrollWidth;")
    check(width <= 375, f"the account page fits a phone's width ({width} px)")
    shot("account-narrow")
    browser.find_element(By.ID, "sign-out").click()
    wait_for(lambda: text("sessions") == "" and browser.find_elements(By.ID, "sign-in"), "signed out, the page asks to sign in")
    browser.set_window_size(1280, 900)
    print("check-web: the account page lists sessions, signs one out, asks for fresh proof before a password change, and signs out")
except Exception as error:
    print(f"check-web (account page) failed: {error}", file=sys.stderr)
    shot("account-failure")
    sys.exit(1)
finally:
    browser.quit()
