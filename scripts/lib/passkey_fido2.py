"""Passkeys built with PyPI's fido2 (Yubico's WebAuthn library: its CBOR, COSE keys, authenticator data
and client data) and signed with `cryptography`, sent to a real server over HTTP (scripts/check-passkeys.sh
sets the scene): sign-up, sign-in and fresh proof with ES256, EdDSA and RS256 keys, then every bad
credential the server must refuse. An implementation other than the server's own and the Swift tests'
authenticator, so the verifier is not only checked against itself. Fails naming the first case not as
expected.
"""
import hashlib
import json
import os
import urllib.error
import urllib.parse
import urllib.request
import uuid

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2.cose import ES256, EdDSA, RS256
from fido2.utils import websafe_decode, websafe_encode
from fido2.webauthn import AttestationObject, AttestedCredentialData, AuthenticatorData, CollectedClientData

SERVER = os.environ["STRATUS_URL"]
CONTAINER = os.environ["STRATUS_CONTAINER"]
API_TOKEN = os.environ["STRATUS_API_TOKEN"]
AUTH = f"/auth/1/{CONTAINER}/development"
ORIGIN = SERVER
FLAG = AuthenticatorData.FLAG


def api(path, body=None, token=None):
    """POSTs `body` as JSON; returns the status and the decoded answer."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    url = f"{SERVER}{AUTH}/{path}?{urllib.parse.urlencode({'ckAPIToken': API_TOKEN})}"
    request = urllib.request.Request(url, data=json.dumps(body or {}).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def expect(condition, what, answer=None):
    if not condition:
        raise AssertionError(f"{what}: {answer}")


class Passkey:
    """One passkey: its key pair (of `algorithm`), credential ID, user handle and signature counter."""

    def __init__(self, algorithm):
        self.algorithm = algorithm
        if algorithm == "ES256":
            self.private = ec.generate_private_key(ec.SECP256R1())
            self.cose = ES256.from_cryptography_key(self.private.public_key())
        elif algorithm == "EdDSA":
            self.private = ed25519.Ed25519PrivateKey.generate()
            self.cose = EdDSA.from_cryptography_key(self.private.public_key())
        else:
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.cose = RS256.from_cryptography_key(self.private.public_key())
        self.credential_id = os.urandom(32)
        self.counter = 0
        self.user_handle = None

    def sign(self, data):
        if self.algorithm == "ES256":
            return self.private.sign(data, ec.ECDSA(hashes.SHA256()))
        if self.algorithm == "EdDSA":
            return self.private.sign(data)
        return self.private.sign(data, padding.PKCS1v15(), hashes.SHA256())

    def registration(self, options, origin=ORIGIN, rp_id=None, flags=FLAG.UP | FLAG.UV | FLAG.AT, fmt="none", kind="webauthn.create"):
        """The credential a browser's toJSON() gives for `options` (PublicKeyCredentialCreationOptionsJSON)."""
        self.user_handle = websafe_decode(options["user"]["id"])
        self.counter += 1
        client_data = CollectedClientData.create(kind, websafe_decode(options["challenge"]), origin)
        credential = AttestedCredentialData.create(b"\0" * 16, self.credential_id, self.cose)
        auth_data = AuthenticatorData.create(hashlib.sha256((rp_id or options["rp"]["id"]).encode()).digest(), flags, self.counter, credential)
        statement = {} if fmt == "none" else {"alg": -7, "sig": b"\x30\x00"}
        attestation = AttestationObject.create(fmt, auth_data, statement)
        return {"id": websafe_encode(self.credential_id), "rawId": websafe_encode(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": websafe_encode(bytes(client_data)), "attestationObject": websafe_encode(bytes(attestation)),
                             "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def assertion(self, options, origin=ORIGIN, rp_id=None, flags=FLAG.UP | FLAG.UV, counter=None, corrupt=False, user_handle=None,
                  credential_id=None):
        """The assertion a browser's toJSON() gives for `options` (PublicKeyCredentialRequestOptionsJSON)."""
        self.counter += 1
        client_data = CollectedClientData.create("webauthn.get", websafe_decode(options["challenge"]), origin)
        auth_data = AuthenticatorData.create(hashlib.sha256((rp_id or options["rpId"]).encode()).digest(), flags,
                                             self.counter if counter is None else counter)
        signature = bytearray(self.sign(bytes(auth_data) + client_data.hash))
        if corrupt:
            signature[len(signature) // 2] ^= 1
        identifier = websafe_encode(credential_id or self.credential_id)
        return {"id": identifier, "rawId": identifier, "type": "public-key",
                "response": {"clientDataJSON": websafe_encode(bytes(client_data)), "authenticatorData": websafe_encode(bytes(auth_data)),
                             "signature": websafe_encode(bytes(signature)), "userHandle": websafe_encode(user_handle or self.user_handle)},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}


def sign_in(passkey, **changes):
    status, options = api("passkey/signin/options")
    expect(status == 200, "sign-in options", options)
    return api("passkey/signin", passkey.assertion(options, **changes))


# Sign-up, sign-in and fresh proof with each algorithm.
passkeys = {}
for algorithm in ("ES256", "EdDSA", "RS256"):
    passkey = Passkey(algorithm)
    username = f"fido2-{algorithm.lower()}-{uuid.uuid4().hex[:8]}"
    status, options = api("passkey/signup/options", {"username": username})
    expect(status == 200 and options["user"]["name"] == username, f"{algorithm}: sign-up options", options)
    status, signed_up = api("passkey/signup", dict(passkey.registration(options), username=username))
    expect(status == 200 and "ckWebAuthToken" in signed_up, f"{algorithm}: sign-up", signed_up)
    status, signed_in = sign_in(passkey)
    expect(status == 200 and signed_in["userRecordName"] == signed_up["userRecordName"], f"{algorithm}: sign-in", signed_in)
    status, options = api("passkey/signin/options")
    status, proved = api("account/reauthenticate", {"passkey": passkey.assertion(options)}, token=signed_in["ckWebAuthToken"])
    expect(status == 200, f"{algorithm}: a passkey is fresh proof", proved)
    passkeys[algorithm] = (passkey, signed_in["ckWebAuthToken"])
    print(f"fido2 {algorithm}: signed up, signed in, proved")

# Every bad registration is refused (BAD_REQUEST), and nothing is stored.
passkey, token = passkeys["ES256"]
bad_registrations = {
    "origin": dict(origin="https://evil.example"),
    "RP ID hash": dict(rp_id="evil.example"),
    "user not present": dict(flags=FLAG.UV | FLAG.AT),
    "user not verified": dict(flags=FLAG.UP | FLAG.AT),
    "backed up but not eligible": dict(flags=FLAG.UP | FLAG.UV | FLAG.AT | FLAG.BS),
    "attestation other than none": dict(fmt="packed"),
    "ceremony type": dict(kind="webauthn.get"),
}
for what, changes in bad_registrations.items():
    status, options = api("passkey/register/options", token=token)
    expect(status == 200, f"registration options ({what})", options)
    status, answer = api("passkey/register", Passkey("ES256").registration(options, **changes), token=token)
    expect(status == 400 and answer.get("serverErrorCode") == "BAD_REQUEST", f"a bad registration ({what}) is refused", answer)
status, options = api("passkey/register/options", token=token)
status, answer = api("passkey/register", passkey.registration(options), token=token)
expect(status == 409 and answer.get("serverErrorCode") == "EXISTS", "a passkey registered already is refused", answer)
print(f"fido2: {len(bad_registrations) + 1} bad registrations refused")

# Every bad assertion is refused (AUTHENTICATION_FAILED); an unknown passkey, a wrong user handle and a
# wrong signature get one answer.
bad_assertions = {
    "origin": dict(origin="https://evil.example"),
    "RP ID hash": dict(rp_id="evil.example"),
    "user not present": dict(flags=FLAG.UV),
    "user not verified": dict(flags=FLAG.UP),
    "backed up but not eligible": dict(flags=FLAG.UP | FLAG.UV | FLAG.BS),
    "counter that does not grow (a clone)": dict(counter=1),
}
for what, changes in bad_assertions.items():
    status, answer = sign_in(passkey, **changes)
    expect(status == 401 and answer.get("serverErrorCode") == "AUTHENTICATION_FAILED", f"a bad assertion ({what}) is refused", answer)
alike = [sign_in(passkey, corrupt=True), sign_in(passkey, credential_id=os.urandom(32)), sign_in(passkey, user_handle=os.urandom(64))]
expect(all(status == 401 for status, _ in alike) and len({answer["reason"] for _, answer in alike}) == 1,
       "an unknown passkey, a wrong user handle and a wrong signature are answered alike", alike)
status, options = api("passkey/signin/options")
assertion = passkey.assertion(options)
expect(api("passkey/signin", assertion)[0] == 200, "a good assertion signs in")
status, answer = api("passkey/signin", assertion)
expect(status == 401 and "used already" in answer.get("reason", ""), "a replayed assertion is refused", answer)
print(f"fido2: {len(bad_assertions) + 4} bad assertions refused")
