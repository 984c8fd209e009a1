"""The server's negotiation decision (STANDARDS.md#negotiation), written from the spec's rules.

Two server descriptions: `{floor, ceiling}` or `{legacy: true}` (the real backend's algorithm:
`decide`), and `{protocol_versions, floor?}` (a set of supported versions: `negotiate`).
"""


def parse(text):
    """`MAJOR.MINOR.PATCH` as a tuple, or None; digits only, no empty part."""
    parts = text.split(".")
    if len(parts) != 3 or not all(p and p.isascii() and p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def parse_announced(text):
    """A client's version: a pre-release or build suffix (from the first `-` or `+`) is dropped."""
    for mark in "-+":
        text = text.split(mark, 1)[0]
    return parse(text)


def show(version):
    return "%d.%d.%d" % version


def negotiate(server, client):
    """`server`: protocol_versions, optional floor, capabilities; `client`: optional
    protocol_version, protocol_versions, capabilities, auth_version. Returns the outcome object:
    {negotiated_protocol_version, capabilities, auth_version} or {error: {...}}."""
    supported = sorted({p for p in (parse(t) for t in server.get("protocol_versions", [])) if p})
    if not supported:
        supported = [(0, 2, 0)]  # a server with no parseable version is a 0.2.0 server
    floor = parse(server["floor"]) if server.get("floor") else None
    if floor not in supported:
        floor = supported[0]
    listed = [p for p in (parse_announced(t) for t in client.get("protocol_versions") or []) if p]
    ceiling = parse_announced(client["protocol_version"]) if client.get("protocol_version") is not None else None
    if listed:
        chosen = max((s for s in supported if s in listed), default=None)
        requested, client_max = client["protocol_versions"], max(listed)
    elif ceiling:
        chosen = max((s for s in supported if s <= ceiling), default=None)
        requested, client_max = [client["protocol_version"]], ceiling
    else:
        chosen, requested, client_max = floor, [], floor
    if chosen is None:
        too_old = client_max < supported[0]
        return {"error": {
            "code": "unsupported_protocol_version",
            "message": "Client is too old; upgrade required" if too_old else "No common protocol version",
            "required": show(supported[0]),
            "received": client["protocol_version"] if client.get("protocol_version") is not None
            else show(client_max),
            "supported": [show(s) for s in supported],
            "requested": requested}}
    wanted = set(client.get("capabilities") or [])
    return {"negotiated_protocol_version": show(chosen),
            "capabilities": sorted(set(server.get("capabilities", [])) & wanted),
            "auth_version": client.get("auth_version", 1)}


MAPPED = {(0, 3, 0), (0, 4, 0), (0, 5, 0)}
TOO_OLD = (0, 4, 0)


def decide(server, client):
    """The real backend's decision: floor and ceiling, the too-old guard (floor 0.4.0 or 0.5.0 refuses
    a parseable version below 0.4.0 before any credential), `min(client, ceiling)` mapped onto
    0.3.0/0.4.0/0.5.0, anything else (absent, null, unparseable, unmapped) the floor. A legacy
    server says 0.2.0 to everyone. Returns the `expect` object of a negotiation vector."""
    wanted = set(client.get("capabilities") or [])
    extras = {"capabilities": sorted(set(server.get("capabilities", [])) & wanted),
              "auth_version": client.get("auth_version", 1)}
    if server.get("legacy"):
        return dict({"hello_version": "0.2.0", "negotiated_protocol_version": "0.2.0"}, **extras)
    floor, ceiling = parse(server["floor"]), parse(server["ceiling"])
    out = {"hello_version": show(ceiling)}
    announced = client.get("protocol_version")
    version = parse_announced(announced) if isinstance(announced, str) else None
    if version is not None and floor >= TOO_OLD and version < TOO_OLD:
        out["refusal"] = {"type": "error", "code": "unsupported_protocol_version", "required": show(TOO_OLD),
                          "received": announced, "message": "Client is too old; upgrade required"}
        return out
    chosen = floor if version is None else min(version, ceiling)
    if chosen not in MAPPED:
        chosen = floor
    return dict(out, negotiated_protocol_version=show(chosen), **extras)


def answer(request):
    server = request["server"]
    if "ceiling" in server or server.get("legacy"):
        return decide(server, request["client"])
    return negotiate(server, request["client"])
