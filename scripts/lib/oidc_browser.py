"""OpenID Connect's web flow in headless Chromium, against a real provider from PyPI (nanoidp): the
sign-in page's "Sign in with …" link goes to the provider's login form and back, and the session is
handed to the app's callback; the "your account" page signs in the same way, confirms with the provider
and keeps it while it is the account's last way to sign in. scripts/check-oidc.sh sets the scene (after
oidc_nanoidp.py, whose user this is). It fails with the step's name on the first thing that is not as
expected.
"""
import json
import os
import urllib.parse
import urllib.request

from browser import Walk
from selenium.webdriver.common.by import By

SERVER = os.environ["STRATUS_URL"]
CONTAINER = os.environ["STRATUS_CONTAINER"]
API_TOKEN = os.environ["STRATUS_API_TOKEN"]
IDP = os.environ["OIDC_ISSUER"]
PROVIDER = os.environ["OIDC_PROVIDER"]
AUTH = f"/auth/1/{CONTAINER}/development"
CALLBACK = f"{SERVER}/healthz"
SIGN_IN = f"{SERVER}{AUTH}/web/signin?{urllib.parse.urlencode({'ckAPIToken': API_TOKEN, 'callback': CALLBACK})}"
ACCOUNT = f"{SERVER}{AUTH}/web/account?{urllib.parse.urlencode({'ckAPIToken': API_TOKEN})}"

walk = Walk(os.environ["WEB_SCREENSHOTS"])
browser = walk.browser
check, shot, text, wait_for = walk.check, walk.shot, walk.text, walk.wait_for


def account(token):
    request = urllib.request.Request(f"{SERVER}{AUTH}/account?ckAPIToken={API_TOKEN}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def at_provider_log_in(username, password):
    """On the provider's login form (when it asks: it may remember the browser), signs in."""
    wait_for(lambda: browser.current_url.startswith(IDP) or not browser.current_url.startswith(SERVER + AUTH + "/oidc"),
             "the browser goes to the provider")
    if browser.current_url.startswith(IDP) and browser.find_elements(By.ID, "username"):
        shot("oidc-2-provider-login")
        browser.find_element(By.ID, "username").send_keys(username)
        browser.find_element(By.ID, "password").send_keys(password)
        browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()


try:
    walk.step = "signing in with the provider on the sign-in page"
    browser.get(SIGN_IN)
    shot("oidc-1-sign-in-page")
    browser.find_element(By.CSS_SELECTOR, f'a[data-provider="{PROVIDER}"]').click()
    at_provider_log_in("testuser", "test123")
    wait_for(lambda: browser.current_url.startswith(CALLBACK), "the provider sends the browser back and the page hands the session to the app")
    token = urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)["ckWebAuthToken"][0]
    me = account(token)
    check(me["methods"] == [f"oidc:{PROVIDER}"], f"the web sign-in reaches the provider's account: {me}")
    check(me["userRecordName"] == os.environ["OIDC_NATIVE_USER"], "the same user as the native app's sign-in")
    check(me["providers"][0].get("email") == "test@example.org", f"the web flow reads the address from the userinfo endpoint: {me}")

    walk.step = "signing in with the provider on the account page"
    browser.get(ACCOUNT)
    browser.find_element(By.CSS_SELECTOR, f'a[data-provider="{PROVIDER}"]').click()
    at_provider_log_in("testuser", "test123")
    wait_for(lambda: text("username") == me["username"], "the account page shows the account")
    listed = browser.find_element(By.CSS_SELECTOR, f'#providers li[data-provider="{PROVIDER}"]')
    check("linked" in listed.text, f"the page lists the linked provider: {listed.text}")
    shot("oidc-3-account")

    walk.step = "confirming with the provider"
    browser.find_element(By.CSS_SELECTOR, f'a[data-confirm="{PROVIDER}"]').click()
    at_provider_log_in("testuser", "test123")
    wait_for(lambda: text("username") == me["username"], "the browser comes back to the account page")

    walk.step = "keeping the last way to sign in"
    browser.find_element(By.CSS_SELECTOR, f'#providers li[data-provider="{PROVIDER}"] button').click()
    wait_for(lambda: "last way to sign in" in text("error"), "the only sign-in method is not removed")
    print("chromium: signed in with the provider on the sign-in and account pages, confirmed with it, kept it")
finally:
    browser.quit()
