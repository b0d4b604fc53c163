#!/usr/bin/env python3
"""An independent implementation of the service's sealing, written only from what a running
gateway serves: GET /api/sealing (the steps, the test vectors, the recovery-key format) and
GET /api/enclave-key (the key and its suite). Every info string, size and field name is read from
those answers; only the primitives come from elsewhere: X25519 and XChaCha20-Poly1305 from PyNaCl
(Debian's python3-nacl, libsodium), HKDF-SHA256 (RFC 5869) from hmac and hashlib.

  seal.py vectors BASE_URL            check this implementation against the served vectors
  seal.py seal BASE_URL PLAINTEXT     seal the JSON text PLAINTEXT; prints {envelope, answerKey}
  seal.py open                        reads {answerKey, response} on stdin; prints the plaintext

answerKey is the client's secret (its ephemeral private key and the request's shared secret):
this is a test tool, so it passes through stdout; a real client keeps it in memory.
Exit status: 0 done, 1 a check failed or the answer did not open, 3 python3-nacl is missing.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import urllib.request

try:
    from nacl import bindings
    from nacl.exceptions import CryptoError
except ImportError:
    sys.stderr.write("python3-nacl (PyNaCl) is not installed: apt-get install -y python3-nacl (.ci/run installs it)\n")
    sys.exit(3)

SUPPORTED = {"keyAgreement": "X25519", "kdf": "HKDF-SHA256", "aead": "XChaCha20-Poly1305"}


class Refused(Exception):
    """A value the scheme says to refuse, or an answer that does not open."""


def b64(text):
    return base64.b64decode(text, validate=True)


def e64(data):
    return base64.b64encode(data).decode("ascii")


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read().decode("utf-8"))


def check_suite(suite):
    """The suite must name the primitives implemented here; everything else is read from it."""
    for part, algorithm in SUPPORTED.items():
        if suite[part]["algorithm"] != algorithm:
            raise Refused(f"unsupported {part}: {suite[part]['algorithm']}")
    if suite["aead"]["keyBytes"] != suite["kdf"]["outputBytes"]:
        raise Refused("the KDF's output is not an AEAD key")
    return suite


def hkdf_sha256(ikm, salt, info, length):
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def x25519(private, public):
    try:
        shared = bindings.crypto_scalarmult(private, public)
    except Exception:  # libsodium refuses an all-zero result itself
        raise Refused("low-order public key")
    if shared == bytes(len(shared)):
        raise Refused("low-order public key")
    return shared


def derive(suite, ikm, salt, which):
    kdf = suite["kdf"]
    return hkdf_sha256(ikm, salt, kdf[which]["info"].encode("utf-8"), kdf["outputBytes"])


def seal_bytes(suite, key, nonce, plaintext_bytes):
    return nonce + bindings.crypto_aead_xchacha20poly1305_ietf_encrypt(plaintext_bytes, None, nonce, key)


def open_bytes(suite, key, sealed):
    aead = suite["aead"]
    if len(sealed) < aead["nonceBytes"] + aead["tagBytes"]:
        raise Refused("ciphertext too short")
    nonce, body = sealed[: aead["nonceBytes"]], sealed[aead["nonceBytes"] :]
    try:
        return bindings.crypto_aead_xchacha20poly1305_ietf_decrypt(body, None, nonce, key)
    except CryptoError:
        raise Refused("the answer does not open: not sealed by the enclave for this request")


def seal_request(suite, enclave_public, plaintext_bytes, e=None, nonce=None):
    size = suite["keyAgreement"]["privateKeyBytes"]
    e = e if e is not None else os.urandom(size)
    nonce = nonce if nonce is not None else os.urandom(suite["aead"]["nonceBytes"])
    E = bindings.crypto_scalarmult_base(e)
    s = x25519(e, enclave_public)
    key = derive(suite, s, E, "request")
    envelope = {"hpke_ciphertext": e64(seal_bytes(suite, key, nonce, plaintext_bytes)), "hpke_ephemeral_public_key": e64(E)}
    return envelope, {"e": e, "s": s, "E": E, "key": key}


def open_response(suite, e, s, response):
    R = b64(response["hpke_response_ephemeral_key"])
    t = x25519(e, R)
    key = derive(suite, t + s, R, "response")
    return open_bytes(suite, key, b64(response["hpke_response_ciphertext"])), {"t": t, "key": key}


def compact_json(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def check_vectors(page):
    suite = check_suite(page["suite"])
    v = page["testVectors"]
    results = []

    def expect(name, got, want):
        if got != want:
            raise Refused(f"{name}: got {got}, want {want}")
        results.append(name)

    P = b64(v["enclavePublicKey"])
    expect("enclave public key", e64(bindings.crypto_scalarmult_base(b64(v["enclavePrivateKey"]))), v["enclavePublicKey"])
    envelope, kept = seal_request(suite, P, compact_json(v["requestPlaintext"]), b64(v["clientEphemeralPrivateKey"]), b64(v["requestNonce"]))
    expect("request shared secret", e64(kept["s"]), v["requestSharedSecret"])
    expect("request key", e64(kept["key"]), v["requestKey"])
    expect("hpke_ephemeral_public_key", envelope["hpke_ephemeral_public_key"], v["envelope"]["hpke_ephemeral_public_key"])
    expect("hpke_ciphertext", envelope["hpke_ciphertext"], v["envelope"]["hpke_ciphertext"])

    # The enclave's side, to rebuild the sealed answer byte for byte.
    r = b64(v["responseEphemeralPrivateKey"])
    R = bindings.crypto_scalarmult_base(r)
    expect("hpke_response_ephemeral_key", e64(R), v["response"]["hpke_response_ephemeral_key"])
    t = x25519(r, kept["E"])
    expect("response shared secret", e64(t), v["responseSharedSecret"])
    enclave_s = x25519(b64(v["enclavePrivateKey"]), kept["E"])
    response_key = derive(suite, t + enclave_s, R, "response")
    expect("response key", e64(response_key), v["responseKey"])
    sealed = seal_bytes(suite, response_key, b64(v["responseNonce"]), compact_json(v["responsePlaintext"]))
    expect("hpke_response_ciphertext", e64(sealed), v["response"]["hpke_response_ciphertext"])

    # The client's side: open the served answer, refuse the forged one.
    plain, _ = open_response(suite, kept["e"], kept["s"], v["response"])
    expect("opened answer", json.loads(plain.decode("utf-8")), v["responsePlaintext"])
    try:
        open_response(suite, kept["e"], kept["s"], v["forgedResponse"])
    except Refused:
        results.append("forged answer refused")
    else:
        raise Refused("the forged answer opened")

    results += check_recovery_key(page["recoveryKey"])
    return results


def check_recovery_key(section):
    example = section["example"]
    key = example["recoveryKey"]
    if not key.startswith(section["prefix"]):
        raise Refused("the example recovery key lacks the prefix")
    encoded = key[len(section["prefix"]) :]
    secret = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
    if base64.urlsafe_b64encode(secret).decode("ascii").rstrip("=") != encoded or e64(secret) != example["secret"]:
        raise Refused("the example recovery key does not decode to its secret")
    d = section["derivation"]
    lookup = hkdf_sha256(secret, b"", d["lookupId"]["info"].encode("utf-8"), d["lookupId"]["outputBytes"])
    storage = hkdf_sha256(secret, b"", d["storageKey"]["info"].encode("utf-8"), d["storageKey"]["outputBytes"])
    if lookup.hex() != example["lookupId"] or e64(storage) != example["storageKey"]:
        raise Refused("the recovery key's derivation does not match the example")
    return ["recovery key example"]


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    try:
        if command == "vectors" and len(argv) == 3:
            page = get_json(argv[2].rstrip("/") + "/api/sealing")
            print(json.dumps({"checked": check_vectors(page)}))
        elif command == "seal" and len(argv) == 4:
            served = get_json(argv[2].rstrip("/") + "/api/enclave-key")
            suite = check_suite(served["sealing"])
            envelope, kept = seal_request(suite, b64(served["hpke_public_key"]), argv[3].encode("utf-8"))
            print(json.dumps({"envelope": envelope, "answerKey": {"e": e64(kept["e"]), "s": e64(kept["s"])}, "page": suite["page"]}))
        elif command == "open" and len(argv) == 2:
            given = json.load(sys.stdin)
            # The suite of the key the request was sealed to; the page link is how it is found again.
            suite = check_suite(get_json(given["page"])["suite"])
            plain, _ = open_response(suite, b64(given["answerKey"]["e"]), b64(given["answerKey"]["s"]), given["response"])
            sys.stdout.write(plain.decode("utf-8"))
        else:
            sys.stderr.write(__doc__)
            return 2
    except Refused as refused:
        sys.stderr.write(f"refused: {refused}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
