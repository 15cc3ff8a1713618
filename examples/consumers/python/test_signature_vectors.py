"""pgv2kit's signature vectors, checked by Python's own unittest and hashlib: no kit code, no adapter.

Reads the JSON export of the vectors (pgv2kit vectors export --format json --out <dir>, or the
vectors-json/ folder the npm package ships) from $PGV2KIT_VECTORS_JSON, else from the package
folder this file sits in. For every signature case it builds the content from the inputs (the six
text parts, each followed by LF, then the body's bytes and one LF: spec 5.1, R1-R3), compares it
with the expected content and checks the sign is the SHA-256 of it in lower-case hex (5.2); a
mistaken signer's candidate, when the case gives one, differs, and hashes to its own sign when its
mistake is in the content.

    PGV2KIT_VECTORS_JSON=./pgv2kit-vectors python3 -m unittest test_signature_vectors.py
"""
import hashlib
import json
import os
import pathlib
import unittest

HERE = pathlib.Path(__file__).resolve()
EXPORT = pathlib.Path(os.environ.get("PGV2KIT_VECTORS_JSON") or HERE.parents[3] / "vectors-json")
TEXT_PARTS = ("appId", "appSecret", "method", "url", "timestamp", "nonce")


def signature_files():
    index = json.loads((EXPORT / "index.json").read_text("utf-8"))
    for entry in index["files"]:
        if entry["kind"] == "signature":
            yield json.loads((EXPORT / entry["file"]).read_text("utf-8"))


def content_of(inputs):
    """The signature content of 5.1: each text part as UTF-8 and LF, the body's bytes, LF."""
    head = b"".join(inputs[name].encode("utf-8") + b"\n" for name in TEXT_PARTS)
    return head + bytes.fromhex(inputs["bodyHex"]) + b"\n"


class SignatureVectors(unittest.TestCase):
    def test_every_signature_case(self):
        checked = 0
        files = list(signature_files())
        self.assertTrue(files, f"no signature file in {EXPORT}")
        for doc in files:
            self.assertEqual(doc["numberOfTests"], len(doc["tests"]), doc["source"])
            for case in doc["tests"]:
                with self.subTest(case["id"]):
                    expected = case["expected"]
                    content = bytes.fromhex(expected["contentHex"])
                    self.assertEqual(content_of(case["inputs"]), content, "content built from the inputs")
                    self.assertEqual(hashlib.sha256(content).hexdigest(), expected["sign"], "sign = lower-case hex SHA-256 of the content")
                    candidate = case.get("candidate")
                    if candidate is not None:
                        # the mistake is in the content (then it hashes to its sign), or in the sign alone
                        if "contentHex" in candidate:
                            mistaken = bytes.fromhex(candidate["contentHex"])
                            self.assertEqual(hashlib.sha256(mistaken).hexdigest(), candidate["sign"].lower())
                        self.assertNotEqual(candidate["sign"], expected["sign"])
                checked += 1
        print(f"checked {checked} signature cases", flush=True)


if __name__ == "__main__":
    unittest.main()
