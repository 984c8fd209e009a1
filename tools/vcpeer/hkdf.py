"""HKDF-SHA256 (RFC 5869) over Python's hmac."""
import hashlib
import hmac


def hkdf(ikm, salt, info, length):
    """Returns (PRK, OKM) as bytes."""
    prk = hmac.new(salt if salt else bytes(32), ikm, hashlib.sha256).digest()
    okm, t, i = b"", b"", 1
    while len(okm) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        okm += t
        i += 1
    return prk, okm[:length]


def answer(request):
    """`{ikm_hex, salt_hex, info_hex, length}` -> `{prk_hex, okm_hex}`."""
    prk, okm = hkdf(bytes.fromhex(request["ikm_hex"]), bytes.fromhex(request["salt_hex"]),
                    bytes.fromhex(request["info_hex"]), request["length"])
    return {"prk_hex": prk.hex(), "okm_hex": okm.hex()}
