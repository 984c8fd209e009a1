"""vcproto's reference conformance peer, one module per kind of vector (see Vectors/CONFORMANCE.md).

jsontext: strict JSON parsing that keeps member order and number literals, and the canonical writer.
messages: frame verdicts and findings derived from Schema/<version>/ with jsonschema.
envelope: compression envelopes opened with Python's zlib.
auth: auth v2 MAC inputs, MACs and outcomes with Python's hmac.
negotiation: the server's version and capability decision.
"""
