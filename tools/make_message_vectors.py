#!/usr/bin/env python3
"""Writes Vectors/messages/<version>/*.json: the golden message vectors of protocols 0.2.0-0.5.0.

Valid frames are hand-written below (realistic values, facts from the real system) and emitted in
vcproto's canonical encoding: `type` first, then members in catalog order (read from Schema/, which is
generated from the catalog), compact, `/` unescaped, non-ASCII raw. Invalid frames are mutations whose
expected findings follow from the specification's rules (STANDARDS.md), computed here -- never by
running vcproto. The Swift tests and tools/crosscheck_schema.py then check vcproto and jsonschema
against these expectations, and tools/crosscheck_schema.py also checks the verdicts of the 0.2.0 types
against the independent reference catalogs (Reference/catalog-<version>.json).

Every version gets the same treatment from its own Schema/<version>/: a valid frame per type (VALID,
with the per-version frames of VALID_BY_VERSION where the shape changed), the mutations below, the
value rules the real server enforces in that version, members of other versions (a warning naming
them), and a `not_in_version` frame for every type another version has and this one lacks.

Mutations, each with its expected findings read from the catalog's facts in Schema/ (requiredness,
nullability, JSON type):
- every message: each required member missing; each declared member (extensions included) null
  (`null_not_allowed`, or a valid vector where the member is nullable) and of the wrong JSON type;
- every nested shape and array reachable from a valid frame (to the bottom: recursive command groups,
  raw Claude records, usage/cost, ...): in one element (the last), each required member missing, each
  member null and of the wrong type; the element itself null and of the wrong type;
- hand-written cases: closed sets, ranges, formats, cross-member rules, frame-level codes.

    python3 tools/make_message_vectors.py
"""
import copy
import glob
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSIONS = ["0.2.0", "0.3.0", "0.4.0", "0.5.0"]
VERSION = VERSIONS[0]  # the version being generated (set by main)
OUT_ROOT = os.path.join(ROOT, "Vectors", "messages")

SID = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
SID2 = "9b2c7d41-3e5f-4a6b-8c7d-0e1f2a3b4c5d"
CMD = "cmd-7f3e2d1c-0b9a-4876-9543-210fedcba987"
KEY = "untethered-00112233445566778899aabbccddeeff"
TS = "2026-01-11T17:25:32.123Z"

RECORD_USER = {
    "type": "user", "uuid": "1f0e2d3c-4b5a-4968-8776-655443322110", "parentUuid": None,
    "timestamp": "2026-01-11T17:20:01.512Z", "sessionId": SID, "cwd": "/Users/dev/voice-code",
    "isSidechain": False,
    "message": {"role": "user", "content": "Résume les tests qui échouent, s'il te plaît"},
}
RECORD_ASSISTANT = {
    "type": "assistant", "uuid": "2a1b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
    "parentUuid": "1f0e2d3c-4b5a-4968-8776-655443322110", "timestamp": "2026-01-11T17:20:09.004Z",
    "sessionId": SID, "cwd": "/Users/dev/voice-code", "isSidechain": False,
    "message": {"role": "assistant", "model": "claude-sonnet", "content": [
        {"type": "text", "text": "Two tests fail in `VoiceCodeClientTests`:\n```swift\nXCTAssertEqual(a, \"b\")\n```"},
        {"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {"command": "swift test 2>&1 | tail"}},
    ]},
}

# One realistic valid frame per type. Member order here does not matter: frames are written in
# catalog order.
VALID = {
    # client -> server
    "connect": {"api_key": KEY, "session_id": SID, "recent_sessions_limit": 10},
    "ping": {},
    "subscribe": {"session_id": SID, "last_message_id": "2a1b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"},
    "unsubscribe": {"session_id": SID},
    "session_deleted": {"session_id": SID},
    "prompt": {"text": "Run the failing tests again", "resume_session_id": SID,
               "working_directory": "/Users/dev/voice-code"},
    "set_directory": {"path": "/Users/dev/voice-code"},
    "set_max_message_size": {"size_kb": 200},
    "message_ack": {"message_id": "6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"},
    "compact_session": {"session_id": SID},
    "kill_session": {"session_id": SID},
    "infer_session_name": {"session_id": SID, "message_text": "Fix the reconnect backoff in the iOS client"},
    "create_worktree_session": {"session_name": "reconnect-backoff", "parent_directory": "/Users/dev/voice-code"},
    "execute_command": {"command_id": "git.status", "working_directory": "/Users/dev/voice-code"},
    "get_command_history": {"working_directory": "/Users/dev/voice-code", "limit": 50},
    "get_command_output": {"command_session_id": CMD},
    "upload_file": {"filename": "diagram.png", "content": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
                    "storage_location": "/Users/dev/voice-code"},
    "list_resources": {"storage_location": "/Users/dev/voice-code"},
    "delete_resource": {"filename": "diagram.png", "storage_location": "/Users/dev/voice-code"},
    "start_recipe": {"session_id": SID, "recipe_id": "implement-and-review", "working_directory": "/Users/dev/voice-code"},
    "exit_recipe": {"session_id": SID},
    "get_available_recipes": {},
    "refresh_sessions": {"recent_sessions_limit": 5},
    "disconnect": {"reason": "background"},
    # server -> client
    "hello": {"message": "Welcome to voice-code backend", "version": "0.2.0", "auth_version": 1,
              "instructions": "Send connect message with api_key"},
    "connected": {"message": "Session registered", "session_id": SID, "negotiated_protocol_version": "0.2.0",
                  "capabilities": ["heartbeat", "message_ack"], "auth_version": 1},
    "auth_error": {"message": "Authentication failed"},
    "pong": {},
    "ack": {"message": "Processing prompt..."},
    "error": {"message": "Session not found: " + SID, "session_id": SID},
    "session_list": {"sessions": [
        {"session_id": SID, "name": "Reconnect backoff", "working_directory": "/Users/dev/voice-code",
         "last_modified": 1768152332123, "message_count": 42},
        {"session_id": SID2, "name": "voice-code - 2026-01-10 09:14", "working_directory": "/Users/dev/voice-code",
         "last_modified": 1768036440000, "message_count": 3}], "total_count": 2},
    "recent_sessions": {"sessions": [
        {"session_id": SID, "name": "Reconnect backoff", "working_directory": "/Users/dev/voice-code",
         "last_modified": "2026-01-11T17:25:32.123Z"},
        {"session_id": SID2, "name": "日本語のセッション", "working_directory": "/Users/dev/notes",
         "last_modified": "2026-01-10T09:14:00Z"}], "limit": 5},
    "available_commands": {"working_directory": None, "project_commands": [], "general_commands": [
        {"id": "git.status", "label": "Git Status", "type": "command", "description": "Show git working tree status"},
        {"id": "git.worktree.list", "label": "Git Worktree List", "type": "command", "description": "List all git worktrees"}]},
    "session_history": {"session_id": SID, "messages": [RECORD_USER, RECORD_ASSISTANT], "total_count": 2,
                        "oldest_message_id": RECORD_USER["uuid"], "newest_message_id": RECORD_ASSISTANT["uuid"],
                        "is_complete": True},
    "session_updated": {"session_id": SID, "messages": [RECORD_ASSISTANT]},
    "session_created": {"session_id": SID2, "name": "New session", "working_directory": "/Users/dev/voice-code",
                        "last_modified": 1768152332123, "message_count": 0, "preview": None},
    "session_ready": {"session_id": SID2, "message": "Session is ready for subscription"},
    "turn_complete": {"session_id": SID},
    "session_locked": {"message": "Session is currently processing a prompt. Please wait.", "session_id": SID},
    "session_killed": {"session_id": SID, "message": "Session process terminated"},
    "session_name_inferred": {"session_id": SID, "name": "Reconnect backoff"},
    "infer_name_error": {"error": "Session not found", "session_id": SID},
    "compaction_complete": {"session_id": SID},
    "compaction_error": {"session_id": SID, "error": "Compaction failed: no conversation"},
    "worktree_session_created": {"success": True, "session_id": SID2, "worktree_path": "/Users/dev/voice-code-reconnect-backoff",
                                 "branch_name": "reconnect-backoff"},
    "worktree_session_error": {"success": False, "error": "Failed to create worktree", "error_type": "git_failed",
                               "details": {"step": "git_worktree_add", "stderr": "fatal: 'reconnect-backoff' is already checked out",
                                           "branch_name": "reconnect-backoff"}},
    "command_started": {"command_session_id": CMD, "command_id": "git.status", "shell_command": "git status"},
    "command_output": {"command_session_id": CMD, "stream": "stdout", "text": "On branch main"},
    "command_complete": {"command_session_id": CMD, "exit_code": 0, "duration_ms": 184},
    "command_error": {"command_id": "docker.up", "error": "Unknown command: docker.up"},
    "command_history": {"sessions": [
        {"command_session_id": CMD, "command_id": "git.status", "shell_command": "git status",
         "working_directory": "/Users/dev/voice-code", "timestamp": "2026-01-11T17:25:30Z", "exit_code": 0,
         "duration_ms": 184, "end_time": "2026-01-11T17:25:30.184Z", "output_preview": "On branch main"}], "limit": 50},
    "command_output_full": {"command_session_id": CMD, "output": "", "exit_code": None, "timestamp": "2026-01-11T17:25:30Z",
                            "duration_ms": None, "command_id": "make.test", "shell_command": "make test",
                            "working_directory": "/Users/dev/voice-code"},
    "file_uploaded": {"filename": "diagram.png", "path": ".untethered/resources/diagram.png", "size": 68,
                      "timestamp": "2026-01-11T17:25:32Z"},
    "resources_list": {"resources": [{"filename": "diagram.png", "path": ".untethered/resources/diagram.png", "size": 68,
                                      "timestamp": "2026-01-11T17:25:32Z"}], "storage_location": "/Users/dev/voice-code"},
    "resource_deleted": {"filename": "diagram.png", "path": ".untethered/resources/diagram.png"},
    "available_recipes": {"recipes": [{"id": "implement-and-review", "label": "Implement & Review",
                                       "description": "Implement the task, then review the change"}]},
    "recipe_started": {"recipe_id": "implement_and_review", "recipe_label": "Implement & Review", "session_id": SID,
                       "current_step": "implement", "step_count": 1},
    "recipe_step_started": {"session_id": SID, "step": "code_review", "step_count": 2},
    "recipe_step_transition": {"session_id": SID, "from_step": "implement", "to_step": "code_review"},
    "orchestration_retry": {"session_id": SID, "step": "code_review", "error": None},
    "recipe_exited": {"session_id": SID, "reason": "user-requested"},
    "response": {"message_id": "6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", "success": True, "text": "Both tests pass now.",
                 "session_id": SID, "usage": {"input_tokens": 1200, "output_tokens": 340},
                 "cost": {"input_cost": 0.0036, "output_cost": 0.0051, "total_cost": 0.0087}},
    "replay": {"message_id": "6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
               "message": {"role": "assistant", "text": "Both tests pass now.", "session_id": SID, "timestamp": TS}},
    "heartbeat": {"timestamp": "2026-01-11T17:26:17Z"},
    "draining": {"message": "Server shutting down, please reconnect", "retry_after_ms": 5000},
}

HISTORY_USER = {"uuid": RECORD_USER["uuid"], "role": "user", "text": "Résume les tests qui échouent",
                "timestamp": "2026-05-16T09:20:01.512Z", "provider": "claude"}
HISTORY_ASSISTANT = {"uuid": RECORD_ASSISTANT["uuid"], "role": "assistant", "text": "Two tests fail.",
                     "timestamp": None, "provider": "claude"}


def history(extra_user, extra_assistant):
    return [dict(HISTORY_USER, **extra_user), dict(HISTORY_ASSISTANT, **extra_assistant)]


SIGNATURE = "48213:" + RECORD_USER["uuid"]

# Frames whose shape changed: the realistic valid frame of each version (replacing VALID's).
VALID_BY_VERSION = {
    "0.3.0": {
        "hello": dict(VALID["hello"], version="0.3.0"),
        "connected": {"message": "Session registered", "session_id": None, "negotiated_protocol_version": "0.3.0"},
        "prompt": dict(VALID["prompt"], provider="copilot"),
        "start_recipe": dict(VALID["start_recipe"], provider="claude"),
        "session_list": {"sessions": [dict(VALID["session_list"]["sessions"][0], provider="claude"),
                                      VALID["session_list"]["sessions"][1]], "total_count": 2},
        "recent_sessions": {"sessions": [dict(s, provider="claude") for s in VALID["recent_sessions"]["sessions"]],
                            "limit": 5},
        "session_created": dict(VALID["session_created"], provider="claude"),
        "session_history": dict(VALID["session_history"], messages=history({}, {})),
        "session_updated": {"session_id": SID, "messages": history({}, {})},
        "turn_complete": {"session_id": SID, "aborted": True},
        "session_killed": {"session_id": SID, "message": "Session window killed"},
        "response": {k: v for k, v in VALID["response"].items() if k not in ("usage", "cost")},
        "supervisor_message": {"text": "Which sessions are still running?"},
        "canvas_action": {"callback_id": "cb-confirm-1", "action": "confirm"},
        "canvas_update": {"components": [{"type": "status_card", "props": {"title": "Reconnect backoff", "status": "running"}},
                                         {"type": "text_block"}]},
        "tts_speak": {"text": "Both tests pass now.", "streaming": True, "priority": "notification"},
        "supervisor_thinking": {"active": True},
    },
}
VALID_BY_VERSION["0.4.0"] = dict(VALID_BY_VERSION["0.3.0"], **{
    "hello": dict(VALID["hello"], version="0.5.0"),
    "connected": {"message": "Session registered", "session_id": None, "negotiated_protocol_version": "0.4.0"},
    "connect": dict(VALID["connect"], protocol_version="0.4.0"),
    "subscribe": {"session_id": SID, "last_seq": 41},
    "session_history": {"session_id": SID, "messages": history({"session_id": SID, "seq": 42},
                                                               {"session_id": SID, "seq": 44}),
                        "first_seq": 42, "last_seq": 44, "next_seq": 45, "is_complete": True, "gap": None},
    "session_updated": {"session_id": SID2, "messages": [RECORD_USER]},
    "connect_ack": {"negotiated_protocol_version": "0.4.0"},
})
VALID_BY_VERSION["0.5.0"] = dict(VALID_BY_VERSION["0.4.0"], **{
    "connected": {"message": "Session registered", "session_id": None, "negotiated_protocol_version": "0.5.0"},
    "connect": dict(VALID["connect"], protocol_version="0.5.0"),
    "subscribe": {"session_id": SID, "from_offset": 120, "file_signature_seen": SIGNATURE},
    "session_history": {"session_id": SID, "messages": history({"session_id": SID, "offset": 120},
                                                               {"session_id": SID, "offset": 123}),
                        "next_offset": 124, "end_of_file": True, "file_signature": SIGNATURE},
    "connect_ack": {"negotiated_protocol_version": "0.5.0"},
})
VALID_BY_VERSION["0.2.0"] = {}
BASE_VALID = VALID

# Extra valid frames worth pinning.
EXTRA_VALID = [
    ("connect", "auth_v2", "auth v2: HMAC answer instead of the key, with negotiation fields",
     {"session_id": SID, "protocol_version": "0.2.0", "protocol_versions": ["0.2.0"], "capabilities": ["heartbeat"],
      "auth_version": 2, "client_nonce": "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
      "auth_response": "5d41402abc4b2a76b9719d911017c592aa5d41402abc4b2a76b9719d911017c5"}),
    ("connected", "auth_v2", "connected after an auth v2 handshake: negotiated version, capabilities and the server's proof",
     {"message": "Session registered", "session_id": SID, "negotiated_protocol_version": "0.2.0",
      "capabilities": ["heartbeat"], "auth_version": 2,
      "server_proof": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}),
    ("hello", "negotiation", "hello advertising versions, auth versions, capabilities and a challenge",
     {"message": "Welcome to voice-code backend", "version": "0.2.0", "auth_version": 1,
      "instructions": "Send connect message with api_key", "protocol_versions": ["0.2.0"], "auth_versions": [1, 2],
      "capabilities": ["compression_binary", "draining", "heartbeat", "message_ack"],
      "challenge": "a3f1c2e4b5d60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"}),
    ("prompt", "new_session", "prompt starting a new session, with an idempotency key",
     {"text": "Créer un test pour le parseur 🚀", "new_session_id": SID2, "working_directory": "/Users/dev/voice-code",
      "idempotency_key": "e2c8f3a1-7b4d-4c6e-9f0a-1b2c3d4e5f60"}),
    ("error", "unsupported_version", "negotiation failure as the server sends it before closing",
     {"message": "Unsupported protocol version", "code": "unsupported_protocol_version", "required": "0.2.0",
      "received": "0.1.0", "supported": ["0.2.0"], "requested": ["0.1.0"]}),
    ("error", "message_id", "error carrying message_id (message_ack extension): the client acknowledges it like a response",
     {"message": "Claude CLI returned error: rate limited", "session_id": SID,
      "message_id": "7d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a"}),
    ("turn_complete", "null_session", "turn_complete with session_id null, as the real backend sends after a prompt without a session",
     {"session_id": None}),
    ("command_output", "stderr_escapes", "stderr line with tab, quote, backslash and non-ASCII",
     {"command_session_id": CMD, "stream": "stderr", "text": "error:\t\"src/main.c\" \\ échec 失敗"}),
    ("available_commands", "nested_groups", "project commands with a recursive group",
     {"working_directory": "/Users/dev/voice-code", "project_commands": [
         {"id": "docker", "label": "Docker", "type": "group", "children": [
             {"id": "docker.up", "label": "Up", "type": "command"},
             {"id": "docker.logs", "label": "Logs", "type": "group", "children": [
                 {"id": "docker.logs.api", "label": "Api", "type": "command"}]}]},
         {"id": "test", "label": "Test", "type": "command"}],
      "general_commands": [{"id": "bd.ready", "label": "Beads Ready", "type": "command", "description": "Show tasks ready to work on"}]}),
]

# Raw Claude Code records: kept losslessly, so a null inside one is re-encoded as it came.
RAW_SHAPES = ("ClaudeRecord", "ClaudeMessage")

RULES = {  # the catalog's cross-member rules (checked against Schema/ below)
    "connect": [("exactlyOne", ["api_key", "auth_response"]), ("requires", ["auth_response", "client_nonce"])],
    "prompt": [("mutuallyExclusive", ["new_session_id", "resume_session_id"])],
    # the real server's coded refusal always carries both (versions.md section 6 step 2)
    "error": [("requiredWhen", ["code", "unsupported_protocol_version", "required", "received"])],
}


def load_schemas(version):
    schemas = {}
    for path in glob.glob(os.path.join(ROOT, "Schema", version, "types", "*.schema.json")):
        with open(path) as f:
            s = json.load(f)
        schemas[s["title"]] = s
    return schemas


def direction_of(schema):
    return "client_to_server" if schema["description"].startswith("client_to_server") else "server_to_client"


def ordered(value, schema, defs):
    """Returns `value` with object members in catalog order (raw Claude records untouched)."""
    if schema is None:
        return value
    if "anyOf" in schema:
        for alt in schema["anyOf"]:
            if alt.get("type") != "null":
                return ordered(value, alt, defs)
        return value
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        if name in ("ClaudeRecord", "ClaudeMessage"):
            return value
        return ordered(value, defs[name], defs)
    if isinstance(value, list):
        return [ordered(v, schema.get("items"), defs) for v in value]
    if isinstance(value, dict) and "properties" in schema:
        props = schema["properties"]
        out = {k: ordered(value[k], props[k], defs) for k in props if k in value}
        out.update({k: v for k, v in value.items() if k not in props})
        return out
    return value


def frame_text(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def make_frame(type_, members, schemas):
    schema = schemas[type_]
    value = ordered(dict(type=type_, **members), schema, schema.get("$defs", {}))
    return frame_text(value)


def is_set(members, name):
    return members.get(name) is not None


def rule_findings(type_, members):
    out = []
    for kind, names in RULES.get(type_, []):
        if kind == "requiredWhen":
            continue
        set_ = [n for n in names if is_set(members, n)]
        if kind == "exactlyOne":
            if not set_:
                out.append(("/" + names[0], "missing_field"))
            elif len(set_) > 1:
                out.append(("/" + set_[1], "constraint_violation"))
        elif kind == "mutuallyExclusive" and len(set_) > 1:
            out.append(("/" + set_[1], "constraint_violation"))
        elif kind == "requires" and is_set(members, names[0]) and not is_set(members, names[1]):
            out.append(("/" + names[1], "constraint_violation"))
    for kind, (member, value, *required) in [r for r in RULES.get(type_, []) if r[0] == "requiredWhen"]:
        if members.get(member) == value:
            out += [("/" + n, "missing_field") for n in required if not is_set(members, n)]
    return out


def base_type(prop):
    if "anyOf" in prop:
        for alt in prop["anyOf"]:
            if alt.get("type") != "null":
                return alt
    return prop


def nullable(prop):
    return "anyOf" in prop and any(a.get("type") == "null" for a in prop["anyOf"])


def wrong_value(prop):
    t = base_type(prop)
    kind = t.get("type")
    if "$ref" in t:
        return [1]
    return {"string": 42, "integer": "12", "number": "1.5", "boolean": "true", "array": {"x": 1},
            "object": [1]}.get(kind)


def resolve(schema, value, defs):
    """The schema that applies to `value`: picks the matching `anyOf` branch and follows `$ref`.
    Returns (shape name or None, schema) or (None, None) when `value` is null in a nullable slot."""
    if "anyOf" in schema:
        branches = [a for a in schema["anyOf"] if a.get("type") != "null"]
        if value is None:
            return None, None
        kind = "object" if isinstance(value, dict) else "array" if isinstance(value, list) else None
        match = [a for a in branches if a.get("type") == kind or (kind == "object" and "$ref" in a)]
        schema = (match or branches)[0]
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return name, defs[name]
    return None, schema


def sites(members, schema, defs):
    """Every nested object of a shape and every array inside a frame: yields (kind, pointer tokens,
    shape name, schema), kind "shape" or "array"; pointers are lists of member names and indices."""
    def walk(value, sub, ptr):
        if len([a for a in sub.get("anyOf", []) if a.get("type") != "null"]) > 1:
            return  # alternatives (0.3.0 session_updated: canonical or raw): a broken element is wrong_type whole
        name, sub = resolve(sub, value, defs)
        if sub is None:
            return
        if isinstance(value, dict) and "properties" in sub:
            if ptr:
                yield "shape", ptr, name, sub
            for key, child in value.items():
                if key in sub["properties"]:
                    yield from walk(child, sub["properties"][key], ptr + [key])
        elif isinstance(value, list) and sub.get("type") == "array":
            items = sub.get("items") or {}
            yield "array", ptr, None, items
            for i, element in enumerate(value):
                yield from walk(element, items, ptr + [i])
    yield from walk(members, schema, [])


def pattern(ptr):
    return tuple("*" if isinstance(t, int) else t for t in ptr)


def pointer(ptr):
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in ptr)


def dotted(ptr):
    return ".".join(str(t) for t in ptr)


def at(members, ptr):
    for t in ptr:
        members = members[t]
    return members


def mutated(members, ptr, change):
    """A deep copy of `members` with `change(container, last token)` applied at `ptr`."""
    out = copy.deepcopy(members)
    change(at(out, ptr[:-1]), ptr[-1])
    return out


def set_to(value):
    def change(container, key):
        container[key] = value
    return change


def delete(container, key):
    del container[key]


def nested_vectors(type_, frames, schema):
    """Mutations of every nested shape and array reachable from the valid frames of `type_`: for each
    distinct place (array indices abstracted) the last element seen is mutated, so pointers carry
    non-zero indices where the frame has several elements. Expected findings come from the schema
    (that is, the catalog): requiredness, nullability and JSON type."""
    defs = schema.get("$defs", {})
    places = {}
    for members in frames:
        for kind, ptr, name, sub in sites(members, schema, defs):
            places[(kind, pattern(ptr))] = (members, ptr, name, sub)
    out = []
    for (kind, _), (members, ptr, name, sub) in sorted(places.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if kind == "array":
            value = at(members, ptr)
            if not value or sub == {"not": {"type": "null"}}:
                # An empty array has no element to mutate; items of any value (Claude content blocks)
                # are passed through, and the reference catalog says nothing of their nullability.
                continue
            last = ptr + [len(value) - 1]
            out.append(("null." + dotted(last), "element %s of an array is null" % pointer(last),
                        mutated(members, last, set_to(None)), [(pointer(last), "null_not_allowed")]))
            wrong = wrong_value(sub)
            if wrong is not None:
                out.append(("wrong_type." + dotted(last), "element %s has the wrong JSON type" % pointer(last),
                            mutated(members, last, set_to(wrong)), [(pointer(last), "wrong_type")]))
            continue
        element = at(members, ptr)
        for member in sub.get("required", []):
            if member in element:
                target = ptr + [member]
                out.append(("missing." + dotted(target), "required member %s of %s is missing" % (member, name),
                            mutated(members, target, delete), [(pointer(target), "missing_field")]))
        for member, prop in sub["properties"].items():
            target = ptr + [member]
            if nullable(prop):
                if member in sub.get("required", []) or name in RAW_SHAPES:
                    out.append(("valid.null." + dotted(target), "%s.%s is nullable: null is accepted" % (name, member),
                                mutated(members, target, set_to(None)), None))
            else:
                out.append(("null." + dotted(target), "%s.%s is null but not nullable" % (name, member),
                            mutated(members, target, set_to(None)), [(pointer(target), "null_not_allowed")]))
            wrong = wrong_value(prop)
            if wrong is not None:
                out.append(("wrong_type." + dotted(target), "%s.%s has the wrong JSON type" % (name, member),
                            mutated(members, target, set_to(wrong)), [(pointer(target), "wrong_type")]))
    return out


def list_entries(start, items, count):
    """`start` followed by distinct entries valid for the array's `items` schema, `count` in all: older
    versions (0.1.N) for a version list, the next integers for an integer list, `x-extension-N` names
    for a list of strings."""
    if items.get("type") == "integer":
        more = (items.get("minimum", 0) + n for n in range(10 ** 6))
    elif items.get("type") == "string" and items.get("pattern") == "^[0-9]+\\.[0-9]+\\.[0-9]+$":
        more = ("0.1.%d" % n for n in range(10 ** 6))
    elif items == {"type": "string"}:
        more = ("x-extension-%d" % n for n in range(10 ** 6))
    else:
        raise ValueError("no entries for items %s" % items)
    entries = list(start)
    for entry in more:
        if len(entries) == count:
            return entries
        if entry not in entries:
            entries.append(entry)


def vector(id_, description, direction, frame, findings=None, warnings=None):
    v = {"id": id_, "description": description, "direction": direction, "protocol_version": VERSION,
         "frame": frame, "valid": not findings}
    if findings:
        v["findings"] = [{"pointer": p, "code": c} for p, c in findings]
    if warnings:
        v["warnings"] = [{"pointer": p, "code": c} for p, c in warnings]
    return v


def version_rules(version, schemas, add):
    """The value rules the real server enforces in `version` and the frames of other versions, each
    with the findings the spec implies (versions.md as restated in STANDARDS.md's version history)."""
    def frame(type_, members):
        return make_frame(type_, members, schemas)

    v = VERSIONS.index(version)
    if v >= 1:  # 0.3.0 on
        add("prompt", "invalid_value.provider", "the server refuses a provider outside claude|copilot|cursor|opencode",
            frame("prompt", dict(VALID["prompt"], provider="gemini")), [("/provider", "invalid_value")])
        add("turn_complete", "invalid_value.aborted", "aborted is only ever true",
            frame("turn_complete", {"session_id": SID, "aborted": False}), [("/aborted", "invalid_value")])
        add("tts_speak", "invalid_value.streaming", "streaming is only ever true",
            frame("tts_speak", dict(VALID["tts_speak"], streaming=False)), [("/streaming", "invalid_value")])
        add("session_history", "wrong_version.raw_record", "a raw Claude record where canonical messages belong",
            frame("session_history", dict(VALID["session_history"], messages=[dict(VALID["session_history"]["messages"][0]),
                                                                              {"type": "user", "uuid": SID2}])),
            [("/messages/1/role", "missing_field"), ("/messages/1/text", "missing_field"),
             ("/messages/1/timestamp", "missing_field"), ("/messages/1/provider", "missing_field")] +
            ([("/messages/1/session_id", "missing_field")] if v >= 2 else []) +
            ([("/messages/1/seq", "missing_field")] if v == 2 else []) +
            ([("/messages/1/offset", "missing_field")] if v == 3 else []),
            [("/messages/1/type", "unexpected_field")])
        add("session_history", "invalid_value.role", "role is user or assistant",
            frame("session_history", dict(VALID["session_history"], messages=[
                dict(VALID["session_history"]["messages"][0], role="system")])),
            [("/messages/0/role", "invalid_value")])
    else:
        add("subscribe", "valid.last_seq_of_0.4.0", "last_seq belongs to 0.4.0: a warning here",
            frame("subscribe", {"session_id": SID, "last_seq": 3}), None, [("/last_seq", "unexpected_field")])
        add("prompt", "valid.provider_of_0.3.0", "provider exists from 0.3.0 on: a warning here, whatever its value",
            frame("prompt", dict(VALID["prompt"], provider="gemini")), None, [("/provider", "unexpected_field")])
    if version == "0.4.0":
        add("subscribe", "invalid_value.last_message_id", "a non-null last_message_id is refused on 0.4.0",
            frame("subscribe", {"session_id": SID, "last_message_id": RECORD_USER["uuid"]}),
            [("/last_message_id", "invalid_value")])
        add("subscribe", "valid.null_last_message_id", "a null last_message_id is tolerated on 0.4.0",
            frame("subscribe", {"session_id": SID, "last_message_id": None, "last_seq": 0}))
        files_canonical_false.append(("subscribe", "valid.null_last_message_id"))
        add("subscribe", "invalid_value.last_seq", "last_seq must not be negative",
            frame("subscribe", {"session_id": SID, "last_seq": -1}), [("/last_seq", "invalid_value")])
        add("subscribe", "wrong_type.last_seq_string", "last_seq \"5\" is a string, not an integer",
            frame("subscribe", {"session_id": SID, "last_seq": "5"}), [("/last_seq", "wrong_type")])
        add("subscribe", "valid.from_offset_of_0.5.0", "from_offset belongs to 0.5.0: ignored here (a warning)",
            frame("subscribe", {"session_id": SID, "from_offset": 12}), None, [("/from_offset", "unexpected_field")])
        add("session_history", "invalid_value.gap_reason", "gap.reason is pruned or client_ahead",
            frame("session_history", dict(VALID["session_history"], gap={
                "requested_last_seq": 90, "min_available_seq": 1, "reason": "lost"})), [("/gap/reason", "invalid_value")])
        add("session_history", "invalid_value.seq", "seq starts at 1",
            frame("session_history", dict(VALID["session_history"], messages=[
                dict(VALID["session_history"]["messages"][0], seq=0)])), [("/messages/0/seq", "invalid_value")])
        add("session_history", "invalid_value.next_seq", "seq is 1-based, so next_seq is at least 1 (this frame once "
            "crashed a client engine on next_seq - 1)",
            frame("session_history", dict(VALID["session_history"], messages=[], first_seq=None, last_seq=None,
                                          next_seq=-2**63, gap={"requested_last_seq": 40, "min_available_seq": 1,
                                                                "reason": "client_ahead"})),
            [("/next_seq", "invalid_value")])
        add("session_history", "invalid_value.gap.requested_last_seq", "the client's last_seq is never negative",
            frame("session_history", dict(VALID["session_history"], gap={
                "requested_last_seq": -1, "min_available_seq": 1, "reason": "client_ahead"})),
            [("/gap/requested_last_seq", "invalid_value")])
        add("session_history", "wrong_version.0.5.0_shape", "a 0.5.0 session_history on a 0.4.0 channel",
            frame("session_history", VALID_BY_VERSION["0.5.0"]["session_history"]),
            [("/first_seq", "missing_field"), ("/last_seq", "missing_field"), ("/next_seq", "missing_field"),
             ("/is_complete", "missing_field"), ("/gap", "missing_field"),
             ("/messages/0/seq", "missing_field"), ("/messages/1/seq", "missing_field")],
            [("/next_offset", "unexpected_field"), ("/end_of_file", "unexpected_field"),
             ("/file_signature", "unexpected_field"), ("/messages/0/offset", "unexpected_field")])
    if version == "0.5.0":
        add("subscribe", "invalid_value.from_offset", "from_offset must not be negative",
            frame("subscribe", {"session_id": SID, "from_offset": -1}), [("/from_offset", "invalid_value")])
        add("subscribe", "wrong_type.from_offset_string", "from_offset \"5\" is a string, not an integer",
            frame("subscribe", {"session_id": SID, "from_offset": "5"}), [("/from_offset", "wrong_type")])
        add("subscribe", "valid.last_seq_of_0.4.0", "last_seq belongs to 0.4.0: ignored on 0.5.0 (a warning)",
            frame("subscribe", {"session_id": SID, "last_seq": 41}), None, [("/last_seq", "unexpected_field")])
        add("subscribe", "valid.last_message_id_of_0.2.0", "last_message_id is ignored on 0.5.0 (a warning)",
            frame("subscribe", {"session_id": SID, "last_message_id": RECORD_USER["uuid"]}), None,
            [("/last_message_id", "unexpected_field")])
        add("session_history", "valid.file_replaced", "the reload reply after a signature mismatch",
            frame("session_history", {"session_id": SID, "messages": [], "next_offset": 0, "end_of_file": True,
                                      "file_signature": SIGNATURE, "file_replaced": True}))
        add("session_history", "invalid_value.file_replaced", "file_replaced is only ever true",
            frame("session_history", dict(VALID["session_history"], file_replaced=False)),
            [("/file_replaced", "invalid_value")])
        add("session_history", "invalid_value.next_offset", "next_offset is a line offset, never negative",
            frame("session_history", dict(VALID["session_history"], next_offset=-1)), [("/next_offset", "invalid_value")])
        add("session_history", "invalid_value.offset", "an offset is a line index, never negative",
            frame("session_history", dict(VALID["session_history"], messages=[
                dict(VALID["session_history"]["messages"][0], offset=-1)])), [("/messages/0/offset", "invalid_value")])
        add("session_history", "wrong_version.0.4.0_shape", "a 0.4.0 session_history on a 0.5.0 channel",
            frame("session_history", VALID_BY_VERSION["0.4.0"]["session_history"]),
            [("/next_offset", "missing_field"), ("/end_of_file", "missing_field"), ("/file_signature", "missing_field"),
             ("/messages/0/offset", "missing_field"), ("/messages/1/offset", "missing_field")],
            [("/first_seq", "unexpected_field"), ("/last_seq", "unexpected_field"), ("/next_seq", "unexpected_field"),
             ("/is_complete", "unexpected_field"), ("/gap", "unexpected_field"), ("/messages/0/seq", "unexpected_field")])
    if v >= 2:
        refusal = {"message": "Client is too old; upgrade required", "code": "unsupported_protocol_version",
                   "required": "0.4.0", "received": "0.3.0"}
        add("error", "valid.too_old", "the server's refusal of a client below 0.4.0", frame("error", refusal))
        add("error", "missing.received", "unsupported_protocol_version without received",
            frame("error", {k: x for k, x in refusal.items() if k != "received"}), [("/received", "missing_field")])
        add("error", "valid.invalid_subscribe", "a coded subscribe refusal",
            frame("error", {"message": "from_offset must be a non-negative integer" if v == 3 else
                            "last_seq must be a non-negative integer", "code": "invalid_subscribe"}))


files_canonical_false = []


EXTRA_VALID.append(("session_history", "gap", "0.4.0: a gap after a last_seq beyond the server's (full resync)",
                    dict(VALID_BY_VERSION["0.4.0"]["session_history"], gap={
                        "requested_last_seq": 90, "min_available_seq": 1, "reason": "client_ahead"})))
EXTRA_ONLY = {("turn_complete", "null_session"): ["0.2.0"], ("session_history", "gap"): ["0.4.0"]}  # valid only there (session_id nullable)


def generate(version):
    global VERSION, VALID
    VERSION = version
    VALID = dict(BASE_VALID, **VALID_BY_VERSION[version])
    schemas = load_schemas(version)
    extra_valid = [e for e in EXTRA_VALID if e[0] in schemas and version in EXTRA_ONLY.get(e[:2], VERSIONS)]
    # The handshake frames name the version the vector is checked against (a checker that follows the
    # handshake takes the connection's version from them).
    per_version = {"connect": {"protocol_version": version, "protocol_versions": [version]},
                   "connected": {"negotiated_protocol_version": version},
                   "hello": {"version": VALID["hello"]["version"], "protocol_versions": [version]}}
    extra_valid = [(t, suffix, description, dict(members, **per_version[t]) if t in per_version else members)
                   for t, suffix, description, members in extra_valid]
    # The rules above must be exactly the catalog's (the schemas carry their descriptions).
    for type_, schema in schemas.items():
        described = [r["description"] for r in schema.get("allOf", [])]
        assert len(described) == len(RULES.get(type_, [])), (type_, described)
    missing = set(schemas) - set(VALID)
    assert not missing, "no valid frame for %s in %s" % (sorted(missing), version)

    files = {}
    for type_ in sorted(schemas):
        schema = schemas[type_]
        direction = direction_of(schema)
        base = VALID[type_]
        vs = [vector(type_ + ".valid", "a realistic " + type_, direction, make_frame(type_, base, schemas))]
        for t, suffix, description, members in extra_valid:
            if t == type_:
                vs.append(vector("%s.valid.%s" % (t, suffix), description, direction, make_frame(t, members, schemas)))
        props = schema["properties"]
        for name in schema["required"]:
            if name == "type":
                continue
            members = {k: v for k, v in base.items() if k != name}
            vs.append(vector("%s.missing.%s" % (type_, name), "required member %s is missing" % name, direction,
                             make_frame(type_, members, schemas), [("/" + name, "missing_field")] + rule_findings(type_, members)))
        # Every declared member, extensions included: null where the catalog does not allow it (valid
        # where it does), and a value of the wrong JSON type. The carrier is a valid frame of the type
        # that already has the member (so cross-member rules stay satisfied), else the realistic one.
        carriers = [base] + [m for t, _, _, m in extra_valid if t == type_]
        for name, prop in props.items():
            if name == "type":
                continue
            carrier = next((m for m in carriers if m.get(name) is not None), base)
            members = dict(carrier, **{name: None})
            if nullable(prop):
                frame = make_frame(type_, members, schemas)
                if all(v["frame"] != frame for v in vs):
                    v = vector("%s.valid.null.%s" % (type_, name), "%s is nullable: null is accepted" % name, direction,
                               frame)
                    if name not in schema["required"]:
                        v["canonical"] = False  # an optional null is omitted when re-encoded (STANDARDS.md#null)
                    vs.append(v)
            else:
                vs.append(vector("%s.null.%s" % (type_, name), "%s is null but not nullable" % name, direction,
                                 make_frame(type_, members, schemas),
                                 [("/" + name, "null_not_allowed")] + rule_findings(type_, members)))
            wrong = wrong_value(prop)
            if wrong is not None:
                members = dict(carrier, **{name: wrong})
                vs.append(vector("%s.wrong_type.%s" % (type_, name), "%s has the wrong JSON type" % name, direction,
                                 make_frame(type_, members, schemas),
                                 [("/" + name, "wrong_type")] + rule_findings(type_, members)))
        # Every optional member a valid frame carries may be left out: absence is valid (or breaks only
        # a cross-member rule, which the findings then name). The members that differ between versions
        # (from_offset, last_seq, provider, aborted, file_replaced, ...) are optional ones.
        for name in props:
            if name == "type" or name in schema["required"]:
                continue
            carrier = next((m for m in carriers if name in m), None)
            if carrier is None:
                continue
            members = {k: v for k, v in carrier.items() if k != name}
            frame = make_frame(type_, members, schemas)
            if any(v["frame"] == frame for v in vs):
                continue
            findings = rule_findings(type_, members)
            description = ("optional member %s is left out" % name if not findings else
                           "optional member %s is left out, which breaks a rule between members" % name)
            vs.append(vector("%s.absent.%s" % (type_, name), description, direction, frame, findings))
        files[type_] = vs

    def add(type_, suffix, description, frame, findings=None, warnings=None):
        if type_ not in schemas:
            return
        files[type_].append(vector("%s.%s" % (type_, suffix), description, direction_of(schemas[type_]), frame,
                                   findings, warnings))

    # Closed sets, ranges and formats.
    add("command_output", "invalid_value.stream", "stream outside the closed set stdout|stderr",
        make_frame("command_output", dict(VALID["command_output"], stream="stdin"), schemas), [("/stream", "invalid_value")])
    if version == "0.2.0":  # the set is closed only there (the 0.3.0 documentation dropped it)
        add("replay", "invalid_value.role", "message.role outside user|assistant",
            make_frame("replay", dict(VALID["replay"], message=dict(VALID["replay"]["message"], role="system")), schemas),
            [("/message/role", "invalid_value")])
    add("worktree_session_created", "invalid_value.success", "success must be true on this type",
        make_frame("worktree_session_created", dict(VALID["worktree_session_created"], success=False), schemas),
        [("/success", "invalid_value")])
    add("set_max_message_size", "invalid_value.zero", "size_kb must be a positive integer",
        make_frame("set_max_message_size", {"size_kb": 0}, schemas), [("/size_kb", "invalid_value")])
    add("set_max_message_size", "invalid_value.beyond_int64", "integers beyond 64 bits are refused",
        make_frame("set_max_message_size", {"size_kb": 18446744073709551616}, schemas), [("/size_kb", "invalid_value")])
    add("heartbeat", "invalid_value.date", "timestamp is not an RFC 3339 date-time (February 30)",
        make_frame("heartbeat", {"timestamp": "2026-02-30T10:00:00Z"}, schemas), [("/timestamp", "invalid_value")])
    add("heartbeat", "invalid_value.epoch_ms", "the review's epoch-millisecond sketch is not the specified form",
        make_frame("heartbeat", {"timestamp": "1699876543210"}, schemas), [("/timestamp", "invalid_value")])
    add("hello", "invalid_value.version", "version is not MAJOR.MINOR.PATCH",
        make_frame("hello", dict(VALID["hello"], version="v0.2"), schemas), [("/version", "invalid_value")])
    add("hello", "invalid_value.challenge", "challenge is not lowercase hex",
        make_frame("hello", dict(VALID["hello"], challenge="A3F1"), schemas), [("/challenge", "invalid_value")])
    add("error", "invalid_value.message_id", "message_id is not a UUID",
        make_frame("error", dict(VALID["error"], message_id="msg-1"), schemas), [("/message_id", "invalid_value")])
    # Formats of extension members.
    auth_v2 = next(m for t, suffix, _, m in extra_valid if t == "connect" and suffix == "auth_v2")
    for name, bad, why in [("client_nonce", "0F1E2D3C4B5A69788796A5B4C3D2E1F0", "is not lowercase hex"),
                           ("auth_response", "not-hex", "is not hex"),
                           ("auth_version", 0, "is below 1")]:
        add("connect", "invalid_value." + name, "auth v2 connect whose %s %s" % (name, why),
            make_frame("connect", dict(auth_v2, **{name: bad}), schemas), [("/" + name, "invalid_value")])
    add("connect", "invalid_value.protocol_versions", "an element of protocol_versions is not MAJOR.MINOR.PATCH",
        make_frame("connect", dict(auth_v2, protocol_versions=["0.2.0", "latest"]), schemas),
        [("/protocol_versions/1", "invalid_value")])
    connected_v2 = dict(next(m for t, suffix, _, m in extra_valid if t == "connected" and suffix == "auth_v2"))
    add("connected", "invalid_value.server_proof", "server_proof has an odd number of hex digits",
        make_frame("connected", dict(connected_v2, server_proof="abc"), schemas), [("/server_proof", "invalid_value")])
    hello_v2 = next(m for t, suffix, _, m in extra_valid if t == "hello" and suffix == "negotiation")
    add("hello", "invalid_value.auth_versions", "auth versions start at 1",
        make_frame("hello", dict(hello_v2, auth_versions=[0, 2]), schemas), [("/auth_versions/0", "invalid_value")])
    # The handshake lists' cap (STANDARDS.md#limits): every list a schema bounds with maxItems (the
    # validator's handshake_list_too_long cap, generated into Schema/ from it) at exactly its bound,
    # valid, and one entry past it, handshake_list_too_long at the list. The carrier is the valid
    # frame of the type that already has the list; the added entries are valid ones, all distinct.
    for type_ in sorted(schemas):
        for name, prop in schemas[type_]["properties"].items():
            if "maxItems" not in prop:
                continue
            assert prop["type"] == "array", (type_, name)
            carrier = next(m for t, _, _, m in extra_valid if t == type_ and m.get(name))
            limit = prop["maxItems"]
            for count in (limit, limit + 1):
                members = dict(carrier, **{name: list_entries(carrier[name], prop["items"], count)})
                if count <= limit:
                    add(type_, "valid.max_items.%s" % name,
                        "%s lists %d entries, the most a handshake list may hold" % (name, count),
                        make_frame(type_, members, schemas))
                else:
                    add(type_, "handshake_list_too_long.%s" % name,
                        "%s lists %d entries, one more than a handshake list may hold" % (name, count),
                        make_frame(type_, members, schemas), [("/" + name, "handshake_list_too_long")])
    unsupported = next(m for t, suffix, _, m in extra_valid if t == "error" and suffix == "unsupported_version")
    add("error", "invalid_value.required", "required is not MAJOR.MINOR.PATCH",
        make_frame("error", dict(unsupported, required="0.2"), schemas), [("/required", "invalid_value")])
    add("draining", "invalid_value.negative", "retry_after_ms must not be negative",
        make_frame("draining", dict(VALID["draining"], retry_after_ms=-1), schemas), [("/retry_after_ms", "invalid_value")])
    # Nested pointers.
    sessions = copy.deepcopy(VALID["session_list"]["sessions"]) + [
        {"session_id": SID, "name": "third", "working_directory": "/w", "message_count": 1}]
    add("session_list", "missing.nested", "the third session lacks last_modified",
        make_frame("session_list", {"sessions": sessions, "total_count": 3}, schemas),
        [("/sessions/2/last_modified", "missing_field")])
    recent = copy.deepcopy(VALID["recent_sessions"]["sessions"])
    recent[1]["last_modified"] = 1768036440000
    add("recent_sessions", "wrong_type.nested", "recent_sessions uses ISO strings, not epoch milliseconds",
        make_frame("recent_sessions", {"sessions": recent, "limit": 5}, schemas),
        [("/sessions/1/last_modified", "wrong_type")])
    commands = copy.deepcopy(next(m for t, suffix, _, m in extra_valid if suffix == "nested_groups"))
    commands["project_commands"][0]["children"][1]["type"] = "folder"
    commands["project_commands"][0]["children"][0]["label"] = None
    add("available_commands", "nested.recursive", "errors deep inside a recursive command group",
        make_frame("available_commands", commands, schemas),
        [("/project_commands/0/children/0/label", "null_not_allowed"),
         ("/project_commands/0/children/1/type", "invalid_value")])
    if version == "0.2.0":
        history = copy.deepcopy(VALID["session_history"])
        del history["messages"][1]["type"]
        add("session_history", "missing.record_type", "a raw Claude record without its type",
            make_frame("session_history", history, schemas), [("/messages/1/type", "missing_field")])
    first = VALID["session_history"]["messages"][0]
    add("session_history", "null_element", "array elements are never null",
        make_frame("session_history", dict(VALID["session_history"], messages=[first, None]), schemas),
        [("/messages/1", "null_not_allowed")])
    del files_canonical_false[:]
    version_rules(version, schemas, add)
    for type_, suffix in files_canonical_false:
        next(x for x in files[type_] if x["id"] == "%s.%s" % (type_, suffix))["canonical"] = False
    # Cross-member rules.
    add("prompt", "constraint.both_ids", "new_session_id and resume_session_id are mutually exclusive",
        make_frame("prompt", {"text": "hi", "new_session_id": SID2, "resume_session_id": SID}, schemas),
        [("/resume_session_id", "constraint_violation")])
    add("prompt", "valid.null_resume", "null counts as absent for the rule; re-encoding omits the optional member",
        make_frame("prompt", {"text": "hi", "new_session_id": SID2, "resume_session_id": None}, schemas))
    files["prompt"][-1]["canonical"] = False
    add("connect", "missing.credentials", "neither api_key nor auth_response",
        make_frame("connect", {"session_id": SID}, schemas), [("/api_key", "missing_field")])
    add("connect", "constraint.both_credentials", "api_key and auth_response together",
        make_frame("connect", {"api_key": KEY, "client_nonce": "00ff", "auth_response": "00ff"}, schemas),
        [("/auth_response", "constraint_violation")])
    add("connect", "constraint.nonce", "auth_response requires client_nonce",
        make_frame("connect", {"auth_version": 2, "auth_response": "00ff"}, schemas),
        [("/client_nonce", "constraint_violation")])
    # Warnings only: still valid.
    add("ping", "valid.unexpected_field", "an undeclared member is a warning; the frame stays valid",
        frame_text({"type": "ping", "client_time": 1768152332123}), None, [("/client_time", "unexpected_field")])
    # Found by fuzzing: pointers are sequences of Unicode scalars, so a member name that starts with a
    # combining mark stays a separate token after its "/" (and a "/" inside a name is escaped as ~1).
    add("ping", "valid.unexpected_field.combining_mark", "an undeclared member whose name starts with a "
        "combining mark (U+030B) and holds a slash: its pointer is \"/\" + the escaped name",
        frame_text({"type": "ping", "\u030bo/t": 1}), None, [("/\u030bo~1t", "unexpected_field")])
    # Nested shapes and arrays, to the bottom (recursive command groups, raw records, usage, ...).
    for type_ in sorted(schemas):
        frames = [VALID[type_]] + [m for t, _, _, m in extra_valid if t == type_]
        existing = {v["frame"] for v in files[type_]}
        for suffix, description, members, findings in nested_vectors(type_, frames, schemas[type_]):
            frame = make_frame(type_, members, schemas)
            if frame not in existing:
                existing.add(frame)
                add(type_, suffix, description, frame, findings)
    others = sorted(t for v in VERSIONS if v != version for t in load_schemas(v) if t not in schemas)
    files["_frame"] = [
        vector("frame.not_in_version.%s" % t, "%s belongs to other protocol versions, not %s" % (t, version),
               direction_of(load_schemas(next(v for v in VERSIONS if t in load_schemas(v)))[t]),
               frame_text({"type": t}), [("/type", "not_in_version")])
        for t in dict.fromkeys(others)] + [
        vector("frame.unknown_type", "an unknown type is a warning (an error in strict mode)", "client_to_server",
               frame_text({"type": "get_session_stats", "session_id": SID}), None, [("/type", "unknown_type")]),
        vector("frame.recipe_step_complete", "listed in the review, never existed: unknown", "server_to_client",
               frame_text({"type": "recipe_step_complete", "session_id": SID}), None, [("/type", "unknown_type")]),
        vector("frame.wrong_direction", "pong sent by a client", "client_to_server", frame_text({"type": "pong"}),
               [("/type", "wrong_direction")]),
        vector("frame.not_an_object", "a JSON array is not a frame", "client_to_server", '[{"type":"ping"}]',
               [("", "not_an_object")]),
        vector("frame.missing_type", "no type member", "client_to_server", frame_text({"session_id": SID}),
               [("/type", "missing_type")]),
        vector("frame.type_not_string", "type must be a string", "client_to_server", '{"type":7}',
               [("/type", "wrong_type")]),
        vector("frame.invalid_json", "trailing comma", "client_to_server", '{"type":"ping",}', [("", "invalid_json")]),
        vector("frame.truncated", "cut in the middle", "server_to_client", '{"type":"session_list","sessions":[',
               [("", "invalid_json")]),
    ]

    out_dir = os.path.join(OUT_ROOT, version)
    os.makedirs(out_dir, exist_ok=True)
    for old in glob.glob(os.path.join(out_dir, "*.json")):
        os.remove(old)
    total = 0
    for name, vs in sorted(files.items()):
        with open(os.path.join(out_dir, name.lstrip("_") + ".json"), "w") as f:
            json.dump(vs, f, ensure_ascii=False, indent=1)
            f.write("\n")
        total += len(vs)
    print("%s: wrote %d vectors in %d files" % (version, total, len(files)))


def main():
    for old in glob.glob(os.path.join(OUT_ROOT, "*.json")):  # the flat layout before per-version folders
        os.remove(old)
    for version in VERSIONS:
        generate(version)


if __name__ == "__main__":
    main()
