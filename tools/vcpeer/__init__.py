"""vcproto's reference conformance peer, one module per kind of vector (see Vectors/CONFORMANCE.md).

jsontext: strict JSON parsing that keeps member order and number literals, and the canonical writer.
messages: frame verdicts and findings derived from Schema/<version>/ with jsonschema.
envelope: compression envelopes opened with Python's zlib.
auth_bound: auth v2 handshakes (MAC inputs, MACs, frame keys, outcomes) with Python's hmac.
hkdf: HKDF-SHA256 (RFC 5869). frames: authenticated frames, sealed and received.
negotiation: the server's version and capability decision.
"""
