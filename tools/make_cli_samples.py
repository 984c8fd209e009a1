# Generates the vcproto CLI samples in Samples/ (run from the package root: python3 tools/make_cli_samples.py).
import json, base64, zlib, struct
C, S = "client_to_server", "server_to_client"
KEY = "untethered-00112233445566778899aabbccddeeff"
IOS = "6F1C2D4E-8A3B-4C5D-9E7F-0A1B2C3D4E5F"
S1 = "3b9f2c1e-7d4a-4f6b-8c2e-1a5d9e0f7b3c"   # existing Claude session
S2 = "a7c41e52-9b3d-4e8f-b6a1-2d5c8f0e4b97"   # new session from prompt
CMD1 = "cmd-550e8400-e29b-41d4-a716-446655440000"
CMD2 = "cmd-0d3f7a21-5c6e-4b8d-9f1a-7e2c4b6d8a05"
WD = "/Users/dev/code/voice-code"
t0 = 1768122902  # 2026-01-11T09:15:02Z
def ts(sec, ms):
    import datetime
    d = datetime.datetime.fromtimestamp(t0 + sec, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % ms
def dump(m): return json.dumps(m, ensure_ascii=False, separators=(",", ":"))

u1, a1, u2, a2 = "c1d2e3f4-0001-4a5b-8c9d-000000000001", "c1d2e3f4-0002-4a5b-8c9d-000000000002", "c1d2e3f4-0003-4a5b-8c9d-000000000003", "c1d2e3f4-0004-4a5b-8c9d-000000000004"
history = [
  {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": WD, "sessionId": S1, "version": "2.0.76",
   "gitBranch": "main", "type": "user", "message": {"role": "user", "content": "Räume bitte die Tests im Modul „Sync“ auf – danke! 🙂"},
   "uuid": u1, "timestamp": "2026-01-10T17:02:11.204Z"},
  {"parentUuid": u1, "isSidechain": False, "userType": "external", "cwd": WD, "sessionId": S1, "version": "2.0.76",
   "gitBranch": "main", "message": {"id": "msg_01AbCdEfGh", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
   "content": [{"type": "text", "text": "Ich schaue mir zuerst die Testdateien an."},
               {"type": "tool_use", "id": "toolu_01XyZ", "name": "Bash", "input": {"command": "ls Tests/SyncTests", "description": "List sync tests"}}],
   "stop_reason": "tool_use", "usage": {"input_tokens": 1432, "output_tokens": 88}},
   "requestId": "req_011CVx", "type": "assistant", "uuid": a1, "timestamp": "2026-01-10T17:02:15.930Z"},
  {"parentUuid": a1, "isSidechain": False, "userType": "external", "cwd": WD, "sessionId": S1, "version": "2.0.76",
   "gitBranch": "main", "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "toolu_01XyZ", "type": "tool_result",
   "content": "SyncEngineTests.swift\nConflictTests.swift", "is_error": False}]},
   "uuid": u2, "timestamp": "2026-01-10T17:02:16.412Z", "toolUseResult": {"stdout": "SyncEngineTests.swift\nConflictTests.swift", "stderr": "", "interrupted": False}},
  {"parentUuid": u2, "isSidechain": False, "userType": "external", "cwd": WD, "sessionId": S1, "version": "2.0.76",
   "gitBranch": "main", "message": {"id": "msg_01IjKlMn", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
   "content": [{"type": "text", "text": "Fertig: zwei doppelte Tests entfernt, ConflictTests läuft jetzt in 0,4 s."}],
   "stop_reason": "end_turn", "usage": {"input_tokens": 1610, "output_tokens": 41}},
   "type": "assistant", "uuid": a2, "timestamp": "2026-01-10T17:03:00.000Z"},
]
n1, n2 = "d9e8f7a6-0001-4b2c-9d3e-000000000011", "d9e8f7a6-0002-4b2c-9d3e-000000000012"
new_records = [
  {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": WD, "sessionId": S2, "version": "2.0.76",
   "gitBranch": "main", "type": "user", "message": {"role": "user", "content": "What does the reconnect backoff look like?"},
   "uuid": n1, "timestamp": ts(40, 120)},
  {"parentUuid": n1, "isSidechain": False, "userType": "external", "cwd": WD, "sessionId": S2, "version": "2.0.76",
   "gitBranch": "main", "message": {"id": "msg_01OpQr", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
   "content": [{"type": "text", "text": "Exponential: min(2^n, 30) seconds with ±25 % jitter, at most 20 attempts."}],
   "stop_reason": "end_turn", "usage": {"input_tokens": 2210, "output_tokens": 37}},
   "type": "assistant", "uuid": n2, "timestamp": ts(46, 875)},
]
sessions = [
  {"session_id": S1, "name": "Tidy sync tests", "working_directory": WD, "last_modified": 1768064580000, "message_count": 4},
  {"session_id": "5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b", "name": "Fix websocket reconnect", "working_directory": "/Users/dev/code/backend", "last_modified": 1767958331512, "message_count": 27},
]
recent = [
  {"session_id": S1, "name": "Tidy sync tests", "working_directory": WD, "last_modified": "2026-01-10T17:03:00Z"},
  {"session_id": "5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b", "name": "Fix websocket reconnect", "working_directory": "/Users/dev/code/backend", "last_modified": "2026-01-09T11:32:11.512Z"},
]
general = [{"id": "git.status", "label": "Git Status", "description": "Show git working tree status", "type": "command"},
           {"id": "git.push", "label": "Git Push", "description": "Push commits to the remote", "type": "command"}]
project = [{"id": "test", "label": "Test", "type": "command"},
           {"id": "docker", "label": "Docker", "type": "group", "children": [{"id": "docker.up", "label": "Up", "type": "command"}, {"id": "docker.down", "label": "Down", "type": "command"}]}]

conv = [
  (0, 0, S, {"type": "hello", "message": "Welcome to voice-code backend", "version": "0.2.0", "auth_version": 1, "instructions": "Send connect message with api_key"}),
  (0, 41, C, {"type": "connect", "session_id": IOS, "api_key": KEY, "recent_sessions_limit": 5}),
  (0, 63, S, {"type": "session_list", "sessions": sessions, "total_count": 2}),
  (0, 64, S, {"type": "recent_sessions", "sessions": recent, "limit": 5}),
  (0, 66, S, {"type": "available_commands", "working_directory": None, "project_commands": [], "general_commands": general}),
  (0, 120, C, {"type": "set_max_message_size", "size_kb": 200}),
  (0, 131, S, {"type": "ack", "message": "Max message size set to 200 KB"}),
  (2, 310, C, {"type": "subscribe", "session_id": S1}),
  (2, 388, S, {"type": "session_history", "session_id": S1, "messages": history, "total_count": 4, "oldest_message_id": u1, "newest_message_id": a2, "is_complete": True}),
  (30, 0, C, {"type": "ping"}),
  (30, 9, S, {"type": "pong"}),
  (38, 502, C, {"type": "prompt", "text": "What does the reconnect backoff look like?", "new_session_id": S2, "working_directory": WD}),
  (38, 517, S, {"type": "ack", "message": "Processing prompt..."}),
  (39, 904, S, {"type": "session_ready", "session_id": S2, "message": "Session is ready for subscription"}),
  (40, 2, C, {"type": "subscribe", "session_id": S2}),
  (40, 77, S, {"type": "session_history", "session_id": S2, "messages": [], "total_count": 0, "oldest_message_id": None, "newest_message_id": None, "is_complete": True}),
  (46, 990, S, {"type": "session_updated", "session_id": S2, "messages": new_records}),
  (47, 12, S, {"type": "turn_complete", "session_id": S2}),
  (47, 30, S, {"type": "recent_sessions", "sessions": [{"session_id": S2, "name": "Reconnect backoff", "working_directory": WD, "last_modified": ts(46, 990)}] + recent, "limit": 5}),
  (55, 300, C, {"type": "infer_session_name", "session_id": S2, "message_text": "What does the reconnect backoff look like?"}),
  (57, 801, S, {"type": "session_name_inferred", "session_id": S2, "name": "Reconnect backoff"}),
  (60, 0, C, {"type": "ping"}),
  (60, 11, S, {"type": "pong"}),
  (64, 450, C, {"type": "prompt", "text": "Summarise the last change in one sentence.", "session_id": S1}),
  (64, 466, S, {"type": "ack", "message": "Processing prompt..."}),
  (71, 205, S, {"type": "turn_complete", "session_id": None}),
  (80, 100, C, {"type": "execute_command", "command_id": "git.status", "working_directory": WD}),
  (80, 161, S, {"type": "command_output", "command_session_id": CMD1, "stream": "stdout", "text": "On branch main"}),
  (80, 163, S, {"type": "command_started", "command_session_id": CMD1, "command_id": "git.status", "shell_command": "git status"}),
  (80, 170, S, {"type": "command_output", "command_session_id": CMD1, "stream": "stdout", "text": "nothing to commit, working tree clean"}),
  (80, 212, S, {"type": "command_complete", "command_session_id": CMD1, "exit_code": 0, "duration_ms": 112}),
  (85, 0, C, {"type": "execute_command", "command_id": "test", "working_directory": WD}),
  (85, 58, S, {"type": "command_started", "command_session_id": CMD2, "command_id": "test", "shell_command": "make test"}),
  (86, 430, S, {"type": "command_output", "command_session_id": CMD2, "stream": "stderr", "text": "warning: unused variable ‘retries’"}),
  (88, 0, C, {"type": "get_command_output", "command_session_id": CMD2}),
  (88, 40, S, {"type": "command_output_full", "command_session_id": CMD2, "output": "warning: unused variable ‘retries’\n", "exit_code": None, "timestamp": "2026-01-11T09:16:27Z", "duration_ms": None, "command_id": "test", "shell_command": "make test", "working_directory": WD}),
  (90, 0, C, {"type": "ping"}),
  (90, 8, S, {"type": "pong"}),
  (97, 615, S, {"type": "command_output", "command_session_id": CMD2, "stream": "stdout", "text": "Executed 212 tests, with 0 failures"}),
  (97, 640, S, {"type": "command_complete", "command_session_id": CMD2, "exit_code": 0, "duration_ms": 12582}),
  (100, 0, C, {"type": "refresh_sessions", "recent_sessions_limit": 5}),
  (100, 90, S, {"type": "session_list", "sessions": sessions, "total_count": 2}),
  (100, 91, S, {"type": "recent_sessions", "sessions": recent, "limit": 5}),
  (110, 0, C, {"type": "unsubscribe", "session_id": S1}),
]
with open("Samples/conversation-0.2.0.jsonl", "w") as f:
    for sec, ms, d, m in conv:
        f.write(dump({"direction": d, "time": ts(sec, ms), "data": dump(m)}) + "\n")

# Faulty capture: planted faults, one per line where possible.
faulty = [
  (0, 0, S, dump({"type": "hello", "message": "Welcome to voice-code backend", "version": "0.2.0", "auth_version": 1, "instructions": "Send connect message with api_key"})),
  (0, 20, C, dump({"type": "subscribe", "session_id": S1})),                       # before authentication
  (0, 41, C, dump({"type": "connect", "session_id": IOS, "api_key": KEY})),
  (0, 63, S, dump({"type": "session_list", "sessions": [dict(sessions[0], last_modified="2026-01-10T17:03:00Z")], "total_count": 1})),  # wrong type (ISO string where epoch ms)
  (0, 64, S, dump({"type": "recent_sessions", "sessions": [{k: v for k, v in recent[0].items() if k != "last_modified"}], "limit": 5})),  # missing required field
  (0, 120, C, dump({"type": "set_max_message_size", "size_kb": 0})),              # size_kb 0
  (2, 0, C, dump({"type": "prompt", "text": "Continue", "new_session_id": S2, "resume_session_id": S1})),  # both ids
  (2, 50, C, '{"type":"ping",}'),                                                   # malformed JSON
  (3, 0, C, dump({"type": "get_session_stats", "session_id": S1})),               # unknown type (warning)
  (4, 0, C, dump({"type": "message_ack", "message_id": "0f8e7d6c-5b4a-4392-8170-6e5d4c3b2a19"})),  # never sent
  (5, 0, S, dump({"type": "turn_complete", "session_id": None})),                  # fine
]
with open("Samples/faulty-0.2.0.jsonl", "w") as f:
    for sec, ms, d, text in faulty:
        f.write(dump({"direction": d, "time": ts(sec, ms), "data": text}) + "\n")

# HAR with one binary (enveloped) frame.
def msg(kind, sec, ms, m, opcode=1):
    return {"type": kind, "time": t0 + sec + ms / 1000, "opcode": opcode, "data": m}
inner = dump({"type": "session_history", "session_id": S1, "messages": history, "total_count": 4, "oldest_message_id": u1, "newest_message_id": a2, "is_complete": True}).encode()
comp = zlib.compress(inner, 6)
env = b"VC" + bytes([1, 0, 1]) + struct.pack(">I", len(inner)) + comp
hello = dict(conv[0][3], capabilities=["compression_binary", "compression_text", "heartbeat"])
connect = dict(conv[1][3], capabilities=["compression_binary"])
ws = [
  msg("receive", 0, 0, dump(hello)),
  msg("send", 0, 41, dump(connect)),
  msg("receive", 0, 52, dump({"type": "connected", "message": "Session registered", "session_id": IOS, "capabilities": ["compression_binary"]})),
  msg("receive", 0, 63, dump(conv[2][3])),
  msg("receive", 0, 64, dump(conv[3][3])),
  msg("receive", 0, 66, dump(conv[4][3])),
  msg("send", 2, 310, dump({"type": "subscribe", "session_id": S1})),
  msg("receive", 2, 388, base64.b64encode(env).decode(), opcode=2),
  msg("send", 30, 0, dump({"type": "ping"})),
  msg("receive", 30, 9, dump({"type": "pong"})),
]
har = {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [],
  "entries": [{"startedDateTime": "2026-01-11T09:15:01.950Z", "time": 30.5,
    "request": {"method": "GET", "url": "ws://192.168.1.20:8080/", "httpVersion": "HTTP/1.1", "headers": [{"name": "Upgrade", "value": "websocket"}], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
    "response": {"status": 101, "statusText": "Switching Protocols", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "", "headersSize": -1, "bodySize": -1},
    "cache": {}, "timings": {"send": 0, "wait": 30, "receive": 0.5}, "_resourceType": "websocket",
    "_webSocketMessages": ws}]}}
with open("Samples/capture.har", "w") as f:
    json.dump(har, f, ensure_ascii=False, indent=2)
    f.write("\n")

# ---------------------------------------------------------------------------------------------------
# Today's protocol: the real backend at its newest commit (floor 0.4.0, ceiling 0.5.0). Shapes follow
# Reference/catalog-0.4.0.json and catalog-0.5.0.json; the handshake follows session-behaviour.md
# STANDARDS.md#connection-flow (iOS announces 0.5.0; Android and the web client announce nothing and get 0.4.0).
t1 = 1779178800  # 2026-05-19T08:20:00Z
def ts1(sec, ms):
    import datetime
    d = datetime.datetime.fromtimestamp(t1 + sec, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % ms
HELLO5 = {"type": "hello", "message": "Welcome to voice-code backend", "version": "0.5.0", "auth_version": 1,
          "instructions": "Send connect message with api_key"}
HELLO4 = dict(HELLO5, version="0.4.0")
S3 = "f2a9c8d1-4b7e-4c3a-9e5d-6b1a2c3d4e5f"   # session started by a prompt with a provider
general5 = general + [
    {"id": "git.pull", "label": "Git Pull", "description": "Pull from the remote", "type": "command"},
    {"id": "git.log", "label": "Git Log", "description": "Show recent commits", "type": "command"},
    {"id": "git.diff", "label": "Git Diff", "description": "Show unstaged changes", "type": "command"}]
sessions5 = [dict(s, provider="claude") for s in sessions]
recent5 = [dict(r, provider="claude") for r in recent]
texts = ["Räume bitte die Tests im Modul „Sync“ auf – danke! 🙂", "Ich schaue mir zuerst die Testdateien an.\n\n[Tool: Bash ls Tests/SyncTests]",
         "[Tool Result]\nSyncEngineTests.swift\nConflictTests.swift", "Fertig: zwei doppelte Tests entfernt, ConflictTests läuft jetzt in 0,4 s.",
         "Add a test for the conflict resolver too.", "[Tool: Edit Tests/SyncTests/ConflictTests.swift]",
         "Added testResolverPrefersNewestEdit; all 14 sync tests pass."]
stamps = ["2026-05-18T17:02:11.204Z", "2026-05-18T17:02:15.930Z", "2026-05-18T17:02:16.412Z", "2026-05-18T17:03:00.000Z",
          "2026-05-18T17:10:42.118Z", "2026-05-18T17:10:47.530Z", "2026-05-18T17:11:20.006Z"]
roles = ["user", "assistant", "user", "assistant", "user", "assistant", "assistant"]
offsets = [2, 3, 4, 7, 9, 10, 13]   # raw line numbers of the provider file: internal records leave gaps
uuids = ["e1d2c3b4-00%02d-4a5b-8c9d-0000000000%02d" % (i, i) for i in range(1, 8)]
def msg5(i, sid=S1, provider="claude"):
    return {"session_id": sid, "offset": offsets[i], "role": roles[i], "text": texts[i], "uuid": uuids[i],
            "timestamp": stamps[i], "provider": provider}
def msg4(i, seq, sid=S1):
    return {"session_id": sid, "seq": seq, "role": roles[i], "text": texts[i], "uuid": uuids[i], "timestamp": stamps[i],
            "provider": "claude"}
SIG1 = "48213:%s" % uuids[0]          # "<bytes>:<first-line uuid>": changes on every append
SIG2 = "51877:%s" % uuids[0]
new5 = [{"session_id": S3, "offset": 0, "role": "user", "text": "Why does the upload retry twice?", "uuid": "b0c1d2e3-0001-4f5a-9b8c-000000000021",
         "timestamp": ts1(41, 120), "provider": "claude"},
        {"session_id": S3, "offset": 3, "role": "assistant", "text": "The first attempt times out after 10 s; the retry uses the same request id.",
         "uuid": "b0c1d2e3-0002-4f5a-9b8c-000000000022", "timestamp": ts1(46, 875), "provider": "claude"}]
created = {"type": "session_created", "session_id": S3, "name": "Why does the upload retry twice?", "working_directory": WD,
           "last_modified": (t1 + 41) * 1000 + 120, "message_count": 1, "preview": "Why does the upload retry twice?", "provider": "claude"}
recent_after = {"type": "recent_sessions", "sessions": [{"session_id": S3, "name": "Why does the upload retry twice?", "working_directory": WD,
                "last_modified": ts1(41, 120), "provider": "claude"}] + recent5, "limit": 5}
project_cmds = {"type": "available_commands", "working_directory": WD, "project_commands": project, "general_commands": general5}

def connection5():
    return [
      (0, 0, S, HELLO5),
      (0, 38, C, {"type": "connect", "api_key": KEY, "protocol_version": "0.5.0", "recent_sessions_limit": 5}),
      (0, 52, S, {"type": "connected", "message": "Session registered", "session_id": None, "negotiated_protocol_version": "0.5.0"}),
      (0, 61, S, {"type": "session_list", "sessions": sessions5, "total_count": 2}),
      (0, 63, S, {"type": "recent_sessions", "sessions": recent5, "limit": 5}),
      (0, 64, S, {"type": "available_commands", "working_directory": None, "project_commands": [], "general_commands": general5}),
      (0, 70, C, {"type": "set_max_message_size", "size_kb": 200}),
      (0, 71, C, {"type": "subscribe", "session_id": S1, "from_offset": 0}),
      (0, 80, S, {"type": "ack", "message": "Max message size set to 200 KB"}),
      (0, 95, S, project_cmds),
      # The reply stops early (budget): end_of_file false, continue from next_offset.
      (0, 140, S, {"type": "session_history", "session_id": S1, "messages": [msg5(i) for i in range(4)], "next_offset": 8,
                   "end_of_file": False, "file_signature": SIG1}),
      (0, 190, C, {"type": "subscribe", "session_id": S1, "from_offset": 8, "file_signature_seen": SIG1}),
      (0, 201, S, project_cmds),
      (0, 230, S, {"type": "session_history", "session_id": S1, "messages": [msg5(i) for i in range(4, 6)], "next_offset": 11,
                   "end_of_file": True, "file_signature": SIG1}),
      # A live push, tailored to this channel's offset; the file grew, so the signature changed.
      (12, 410, S, {"type": "session_history", "session_id": S1, "messages": [msg5(6)], "next_offset": 14, "end_of_file": True,
                    "file_signature": SIG2}),
      (12, 415, S, {"type": "turn_complete", "session_id": S1}),
      (30, 0, C, {"type": "ping"}),
      (30, 9, S, {"type": "pong"}),
      # Re-subscribing with the older signature: the R2 reload, then everything again from 0.
      (33, 500, C, {"type": "subscribe", "session_id": S1, "from_offset": 11, "file_signature_seen": SIG1}),
      (33, 512, S, project_cmds),
      (33, 530, S, {"type": "session_history", "session_id": S1, "messages": [], "next_offset": 0, "end_of_file": True,
                    "file_replaced": True, "file_signature": SIG2}),
      (33, 601, C, {"type": "subscribe", "session_id": S1, "from_offset": 0, "file_signature_seen": SIG2}),
      (33, 615, S, project_cmds),
      (33, 660, S, {"type": "session_history", "session_id": S1, "messages": [msg5(i) for i in range(7)], "next_offset": 14,
                    "end_of_file": True, "file_signature": SIG2}),
      # A new session with a provider.
      (40, 900, C, {"type": "prompt", "text": "Why does the upload retry twice?", "new_session_id": S3, "working_directory": WD, "provider": "claude"}),
      (40, 915, S, {"type": "ack", "message": "Processing prompt..."}),
      (40, 917, S, project_cmds),
      (41, 300, S, {"type": "session_ready", "session_id": S3, "message": "Session is ready for subscription"}),
      (41, 302, S, created),
      (41, 304, S, recent_after),
      (41, 350, C, {"type": "subscribe", "session_id": S3, "from_offset": 0}),
      (41, 362, S, project_cmds),
      (41, 390, S, {"type": "session_history", "session_id": S3, "messages": new5[:1], "next_offset": 1, "end_of_file": True,
                    "file_signature": "812:%s" % new5[0]["uuid"]}),
      # turn_complete may arrive before the push that carries the final answer.
      (46, 880, S, {"type": "turn_complete", "session_id": S3}),
      (46, 990, S, {"type": "session_history", "session_id": S3, "messages": new5[1:], "next_offset": 4, "end_of_file": True,
                    "file_signature": "1630:%s" % new5[0]["uuid"]}),
      (60, 0, C, {"type": "ping"}),
      (60, 8, S, {"type": "pong"}),
      # A long turn, killed: the synthesized turn_complete says aborted.
      (62, 0, C, {"type": "prompt", "text": "Now run the whole test suite and fix every failure.", "resume_session_id": S3}),
      (62, 14, S, {"type": "ack", "message": "Processing prompt..."}),
      (62, 16, S, project_cmds),
      (75, 0, C, {"type": "kill_session", "session_id": S3}),
      (75, 410, S, {"type": "session_killed", "session_id": S3, "message": "Session window killed"}),
      (75, 412, S, {"type": "turn_complete", "session_id": S3, "aborted": True}),
      (80, 0, C, {"type": "unsubscribe", "session_id": S3}),
    ]

def connection4():
    # Android: announces nothing, gets the 0.4.0 floor.
    push = [dict(msg4(6, 7))]
    return [
      (0, 0, S, HELLO5),
      (0, 44, C, {"type": "connect", "session_id": IOS, "api_key": KEY, "recent_sessions_limit": 5}),
      (0, 59, S, {"type": "connected", "message": "Session registered", "session_id": IOS, "negotiated_protocol_version": "0.4.0"}),
      (0, 61, S, {"type": "session_list", "sessions": sessions5, "total_count": 2}),
      (0, 63, S, {"type": "recent_sessions", "sessions": recent5, "limit": 5}),
      (0, 64, S, {"type": "available_commands", "working_directory": None, "project_commands": [], "general_commands": general5}),
      (0, 71, C, {"type": "subscribe", "session_id": S1, "last_seq": 0}),
      (0, 95, S, project_cmds),
      # The reply is cut by the budget: is_complete false, continue from last_seq.
      (0, 140, S, {"type": "session_history", "session_id": S1, "messages": [msg4(i, i + 1) for i in range(4)], "first_seq": 1,
                   "last_seq": 4, "next_seq": 7, "is_complete": False, "gap": None}),
      (0, 190, C, {"type": "subscribe", "session_id": S1, "last_seq": 4}),
      (0, 201, S, project_cmds),
      (0, 230, S, {"type": "session_history", "session_id": S1, "messages": [msg4(i, i + 1) for i in range(4, 6)], "first_seq": 5,
                   "last_seq": 6, "next_seq": 7, "is_complete": True, "gap": None}),
      # A live push: one window per watcher batch.
      (12, 410, S, {"type": "session_history", "session_id": S1, "messages": push, "first_seq": 7, "last_seq": 7, "next_seq": 8,
                    "is_complete": True, "gap": None}),
      (12, 415, S, {"type": "turn_complete", "session_id": S1}),
      (30, 0, C, {"type": "ping"}),
      (30, 9, S, {"type": "pong"}),
      # A client ahead of the server (its cursor survived a server-side reset): full resync with a gap.
      (33, 500, C, {"type": "subscribe", "session_id": S1, "last_seq": 40}),
      (33, 512, S, project_cmds),
      (33, 560, S, {"type": "session_history", "session_id": S1, "messages": [msg4(i, i + 1) for i in range(7)], "first_seq": 1,
                    "last_seq": 7, "next_seq": 8, "is_complete": True,
                    "gap": {"requested_last_seq": 40, "min_available_seq": 1, "reason": "client_ahead"}}),
      (40, 900, C, {"type": "prompt", "text": "Why does the upload retry twice?", "new_session_id": S3, "working_directory": WD, "provider": "copilot"}),
      (40, 915, S, {"type": "ack", "message": "Processing prompt..."}),
      (40, 917, S, project_cmds),
      (41, 300, S, {"type": "session_ready", "session_id": S3, "message": "Session is ready for subscription"}),
      (41, 302, S, dict(created, provider="copilot")),
      (41, 304, S, recent_after),
      (41, 350, C, {"type": "subscribe", "session_id": S3, "last_seq": 0}),
      (41, 362, S, project_cmds),
      (41, 390, S, {"type": "session_history", "session_id": S3, "messages": [], "first_seq": None, "last_seq": None, "next_seq": 1,
                    "is_complete": True, "gap": None}),
      (47, 12, S, {"type": "turn_complete", "session_id": S3}),
      (62, 0, C, {"type": "prompt", "text": "Now run the whole test suite and fix every failure.", "resume_session_id": S3}),
      (62, 14, S, {"type": "ack", "message": "Processing prompt..."}),
      (62, 16, S, project_cmds),
      (75, 0, C, {"type": "kill_session", "session_id": S3}),
      (75, 410, S, {"type": "session_killed", "session_id": S3, "message": "Session window killed"}),
      (75, 412, S, {"type": "turn_complete", "session_id": S3, "aborted": True}),
      (78, 0, C, {"type": "kill_session", "session_id": S3}),
      (78, 95, S, {"type": "session_killed", "session_id": S3, "message": "No live window for session"}),
      (80, 0, C, {"type": "unsubscribe", "session_id": S3}),
    ]

def write(path, rows, raw=False):
    with open(path, "w") as f:
        for sec, ms, d, m in rows:
            f.write(dump({"direction": d, "time": ts1(sec, ms), "data": m if raw else dump(m)}) + "\n")

write("Samples/conversation-0.5.0.jsonl", connection5())
write("Samples/conversation-0.4.0.jsonl", connection4())

# A 0.3.0 client against today's server: refused before its key is looked at, then closed.
write("Samples/refused-0.3.0.jsonl", [
  (0, 0, S, HELLO5),
  (0, 40, C, {"type": "connect", "api_key": KEY, "protocol_version": "0.3.0"}),
  (0, 47, S, {"type": "error", "code": "unsupported_protocol_version", "required": "0.4.0", "received": "0.3.0",
              "message": "Client is too old; upgrade required"}),
])

# Faulty 0.5.0/0.4.0 capture: four connections, each fault planted on its own line. The comment says
# what the real backend (or its clients) do with the frame; Tests/VCProtoCLITests assert each finding.
bad5_old_shape = {"type": "session_history", "session_id": S1, "messages": [msg4(0, 1)], "first_seq": 1, "last_seq": 1, "next_seq": 2,
                  "is_complete": True, "gap": None}
bad5_no_offset = {"type": "session_history", "session_id": S1, "messages": [msg5(0), {k: v for k, v in msg5(1).items() if k != "offset"}],
                  "next_offset": 4, "end_of_file": True, "file_signature": SIG1}
write("Samples/faulty-0.5.0.jsonl", [
  # iOS, 0.5.0
  (0, 0, S, HELLO5),
  (0, 38, C, {"type": "connect", "api_key": KEY, "protocol_version": "0.5.0"}),
  (0, 52, S, {"type": "connected", "message": "Session registered", "session_id": None, "negotiated_protocol_version": "0.5.0"}),
  (1, 0, C, {"type": "subscribe", "session_id": S1, "from_offset": -1}),                           # invalid_subscribe
  (1, 100, C, {"type": "subscribe", "session_id": S1, "from_offset": 0, "file_signature_seen": 42}),  # invalid_subscribe
  (1, 200, S, bad5_old_shape),                                                                     # 0.4.0 shape: iOS drops it
  (1, 300, S, bad5_no_offset),                                                                     # a message without offset
  (1, 400, S, {"type": "session_history", "session_id": S1, "messages": [], "next_offset": 0, "end_of_file": True,
               "file_replaced": False, "file_signature": SIG1}),                                   # file_replaced is only ever true
  (2, 0, C, {"type": "prompt", "text": "Hello", "new_session_id": S3, "provider": "gemini"}),     # Invalid provider
  (2, 100, S, {"type": "turn_complete", "session_id": S3, "aborted": False}),                     # aborted is only ever true
  (2, 200, C, {"type": "set_directory", "path": WD}),                                             # removed in 0.3.0
  # Android, 0.4.0
  (10, 0, S, HELLO5),
  (10, 44, C, {"type": "connect", "api_key": KEY}),
  (10, 59, S, {"type": "connected", "message": "Session registered", "session_id": None, "negotiated_protocol_version": "0.4.0"}),
  (11, 0, C, {"type": "subscribe", "session_id": S1, "last_message_id": uuids[3]}),               # unsupported_subscribe_field
  (11, 100, C, {"type": "subscribe", "session_id": S1, "last_seq": 5.0}),                         # invalid_subscribe
  # A server started with VC_OFFSET_PROTOCOL=0 cannot negotiate 0.5.0
  (20, 0, S, HELLO4),
  (20, 40, C, {"type": "connect", "api_key": KEY, "protocol_version": "0.5.0"}),
  (20, 52, S, {"type": "connected", "message": "Session registered", "session_id": None, "negotiated_protocol_version": "0.5.0"}),
  # A 0.4.0 client is never too old
  (30, 0, S, HELLO5),
  (30, 40, C, {"type": "connect", "api_key": KEY, "protocol_version": "0.4.0"}),
  (30, 47, S, {"type": "error", "code": "unsupported_protocol_version", "required": "0.4.0", "received": "0.4.0",
               "message": "Client is too old; upgrade required"}),
])
