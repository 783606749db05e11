"""OpenID Connect for native apps against a real provider from PyPI (nanoidp, which enforces PKCE):
this script plays the app. It runs the authorization-code flow with PKCE and a nonce at the provider
itself (the login form, the code, the token endpoint), hands the ID token and the nonce to the server
(oidc/{provider}), and checks what the server must refuse: the token again, another nonce, a token of
another provider client. It also shows the provider refuses a wrong or missing PKCE verifier, the
check the server's web flow relies on. scripts/check-oidc.sh sets the scene. It fails with the step's
name on the first thing that is not as expected.
"""
import base64
import hashlib
import http.cookiejar
import json
import os
import re
import secrets
import urllib.error
import urllib.parse
import urllib.request

SERVER = os.environ["STRATUS_URL"]
CONTAINER = os.environ["STRATUS_CONTAINER"]
API_TOKEN = os.environ["STRATUS_API_TOKEN"]
IDP = os.environ["OIDC_ISSUER"]
PROVIDER = os.environ["OIDC_PROVIDER"]
AUTH = f"/auth/1/{CONTAINER}/development"
# A native app's loopback redirect (RFC 8252 §7.3): nothing needs to listen, the code is read from the Location.
REDIRECT = "http://127.0.0.1:9/callback"


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def check(condition, what):
    if not condition:
        raise SystemExit(f"check-oidc: {what}")
    print(f"ok: {what}")


def call(opener, url, form=None, headers=None, body=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else body
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with opener.open(request) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def authorize(username, password, client_id="demo-client"):
    """The app's authorization-code flow up to the code: the provider's login form filled in."""
    opener = urllib.request.build_opener(NoRedirects, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    nonce, state = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    query = urllib.parse.urlencode({"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT,
                                    "scope": "openid email profile", "state": state, "nonce": nonce,
                                    "code_challenge": challenge, "code_challenge_method": "S256"})
    status, _, page = call(opener, f"{IDP}/authorize?{query}")
    found = re.search(rb'name="transaction_id" value="([^"]+)"', page)
    check(status == 200 and found, "the provider shows its login form")
    status, headers, _ = call(opener, f"{IDP}/authorize?{query}",
                              {"transaction_id": found.group(1).decode(), "username": username, "password": password})
    location = headers.get("Location", "")
    answered = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)
    check(status == 302 and location.startswith(REDIRECT) and answered.get("state") == [state], "the provider sends the code back with the state")
    return opener, answered["code"][0], verifier, nonce


def exchange(opener, code, verifier):
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}
    if verifier is not None:
        form["code_verifier"] = verifier
    basic = base64.b64encode(b"demo-client:demo-secret").decode()
    status, _, body = call(opener, f"{IDP}/token", form, {"Authorization": f"Basic {basic}"})
    return status, json.loads(body or b"{}")


def sign_in(id_token, nonce):
    body = json.dumps({"idToken": id_token, "nonce": nonce}).encode()
    status, _, answer = call(urllib.request.build_opener(NoRedirects), f"{SERVER}{AUTH}/oidc/{PROVIDER}?ckAPIToken={API_TOKEN}",
                             headers={"Content-Type": "application/json"}, body=body)
    return status, json.loads(answer or b"{}")


def account(token):
    request = urllib.request.Request(f"{SERVER}{AUTH}/account?ckAPIToken={API_TOKEN}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


# The provider enforces PKCE: a wrong or missing verifier gets no token.
opener, code, verifier, _ = authorize("admin", "admin")
status, answer = exchange(opener, code, "a-wrong-verifier-" + secrets.token_urlsafe(32))
check(status == 400 and answer.get("error") == "invalid_grant", f"the provider refuses a wrong PKCE verifier ({status} {answer})")
opener, code, verifier, _ = authorize("admin", "admin")
status, answer = exchange(opener, code, None)
check(status == 400, f"the provider refuses a code exchanged without its verifier ({status} {answer})")

# The app's sign-in: a new account (the server signs up with this provider), found again by issuer and sub.
opener, code, verifier, nonce = authorize("testuser", "test123")
status, tokens = exchange(opener, code, verifier)
check(status == 200 and "id_token" in tokens, "the app exchanges its code with the verifier for an ID token")
status, first = sign_in(tokens["id_token"], nonce)
check(status == 200 and first.get("ckWebAuthToken"), f"the server signs the app in with the ID token and nonce ({status} {first})")
status, again = sign_in(tokens["id_token"], nonce)
check(status == 401 and again.get("serverErrorCode") == "AUTHENTICATION_FAILED", f"the same ID token is refused a second time ({status} {again})")
me = account(first["ckWebAuthToken"])
check(me["methods"] == [f"oidc:{PROVIDER}"] and me["providers"][0]["provider"] == PROVIDER, f"the account signs in with the provider ({me})")

opener, code, verifier, nonce = authorize("testuser", "test123")
status, tokens = exchange(opener, code, verifier)
status, wrong = sign_in(tokens["id_token"], nonce + "-not-it")
check(status == 401 and "nonce" in wrong.get("reason", ""), f"another nonce is refused ({status} {wrong})")
status, second = sign_in(tokens["id_token"], nonce)
check(status == 200 and second["userRecordName"] == first["userRecordName"], "a second sign-in of the same user reaches the same account")

opener, code, verifier, nonce = authorize("admin", "admin")
status, tokens = exchange(opener, code, verifier)
status, other = sign_in(tokens["id_token"], nonce)
check(status == 200 and other["userRecordName"] != first["userRecordName"], "another user of the provider gets an account of their own")
print(f"native user: {first['userRecordName']}")
print("check-oidc: the native flow against nanoidp passed")
