"""Passkeys in headless Chromium with its virtual authenticator (CTAP2, internal, resident keys, user
verification), on the server's own pages (scripts/check-passkeys.sh sets the scene: a server whose
container has the relying party localhost and lists its origin). A new user creates an account with a
passkey on the sign-in page and is handed to the app's callback; signs in again with it; on the "your
account" page signs in with it, confirms with it, adds a passkey from a second authenticator and removes the
first. It fails with the step's name on the first thing that is not as expected.
"""
import json
import os
import urllib.error
import urllib.parse
import urllib.request
import uuid

from browser import Walk
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions

SERVER = os.environ["STRATUS_URL"]
CONTAINER = os.environ["STRATUS_CONTAINER"]
API_TOKEN = os.environ["STRATUS_API_TOKEN"]
AUTH = f"/auth/1/{CONTAINER}/development"
CALLBACK = f"{SERVER}/healthz"
QUERY = urllib.parse.urlencode({"ckAPIToken": API_TOKEN, "callback": CALLBACK})
SIGN_IN = f"{SERVER}{AUTH}/web/signin?{QUERY}"
ACCOUNT = f"{SERVER}{AUTH}/web/account?{urllib.parse.urlencode({'ckAPIToken': API_TOKEN})}"

walk = Walk(os.environ["WEB_SCREENSHOTS"])
browser = walk.browser
check, shot, text, wait_for = walk.check, walk.shot, walk.text, walk.wait_for


def authenticator():
    """A new virtual authenticator, as a phone's or laptop's built-in one."""
    options = VirtualAuthenticatorOptions(protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True,
                                          has_user_verification=True, is_user_verified=True)
    browser.add_virtual_authenticator(options)


def account(token):
    """The account centre's answer for a session."""
    request = urllib.request.Request(f"{SERVER}{AUTH}/account?{urllib.parse.urlencode({'ckAPIToken': API_TOKEN})}",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def handed_token():
    """The session the sign-in page handed to the app's callback."""
    wait_for(lambda: browser.current_url.startswith(CALLBACK), "the page hands the session to the app's callback")
    return urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)["ckWebAuthToken"][0]


def passkey_items():
    return browser.find_elements(By.CSS_SELECTOR, "#passkeys li")


try:
    authenticator()
    username = f"chromium-{uuid.uuid4().hex[:8]}"

    walk.step = "creating an account with a passkey on the sign-in page"
    browser.get(SIGN_IN)
    browser.find_element(By.ID, "username").send_keys(username)
    shot("passkey-1-sign-in-page")
    browser.find_element(By.ID, "passkey-sign-up").click()
    first = account(handed_token())
    check(first["username"] == username and first["methods"] == ["passkey"] and len(first["passkeys"]) == 1,
          f"the account signs in with a passkey only: {first}")
    check(len(browser.get_credentials()) == 1, "the authenticator holds one resident passkey")

    walk.step = "signing in with the passkey on the sign-in page"
    browser.get(SIGN_IN)
    browser.find_element(By.ID, "passkey-sign-in").click()
    again = account(handed_token())
    check(again["userRecordName"] == first["userRecordName"], "the passkey signs in to the same account")

    walk.step = "signing in with the passkey on the account page"
    browser.get(ACCOUNT)
    browser.find_element(By.ID, "passkey-sign-in").click()
    wait_for(lambda: text("username") == username, "the page shows the account")
    check(len(passkey_items()) == 1, "the page lists the passkey")
    shot("passkey-2-account")

    walk.step = "confirming with the passkey"
    browser.find_element(By.ID, "confirm-passkey").click()
    wait_for(lambda: "Thank you" in text("notice"), "the passkey is fresh proof")

    walk.step = "adding a passkey from a second authenticator"
    browser.remove_virtual_authenticator()
    authenticator()
    browser.find_element(By.ID, "add-passkey").click()
    wait_for(lambda: "passkey is added" in text("notice"), "the second passkey is added")
    check(len(passkey_items()) == 2, "the page lists both passkeys")
    shot("passkey-3-two-passkeys")

    walk.step = "removing the first passkey"
    first_id = first["passkeys"][0]["id"]
    browser.find_element(By.CSS_SELECTOR, f'#passkeys li[data-passkey-id="{first_id}"] button').click()
    wait_for(lambda: "passkey is removed" in text("notice"), "the first passkey is removed")
    remaining = [item.get_attribute("data-passkey-id") for item in passkey_items()]
    check(len(remaining) == 1 and remaining[0] != first_id, f"the second passkey stays: {remaining}")

    walk.step = "signing in with the second passkey"
    browser.get(SIGN_IN)
    browser.find_element(By.ID, "passkey-sign-in").click()
    check(account(handed_token())["userRecordName"] == first["userRecordName"], "the second passkey signs in to the account")
    print("chromium: signed up, signed in twice, confirmed, added a passkey and removed one")
finally:
    browser.quit()
