#!/usr/bin/env python3
"""Writes the hostile captures of issue 14 (vcproto validate's output and memory) into a directory,
for measuring by hand, e.g.:

    python3 tools/hostile_captures.py /tmp/atk
    /usr/bin/time -f "%MkB %es" .build/debug/vcproto validate /tmp/atk/types.jsonl | wc -c

inject.jsonl  terminal escapes (OSC 52, erase line, forged verdict, bidi, C1) in a type and member names
types.jsonl   20,000 distinct 10 KB types (200 MB): the per-type summary table
ids.jsonl     a handshake, then 10,000 distinct 20 KB message_ids (200 MB): remembered ids
pad.jsonl     one 900 KB type among 4,000 short ones (1 MB): summary rows padded to the longest type
escaped.har   a HAR whose _webSocketMessages key is written with a \\u escape

The tests (Tests/VCProtoCLITests/HostileCaptureTests.swift) build smaller captures of the same kinds
themselves; this script is only for measuring.
"""
import json, os, sys
d = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(d, exist_ok=True)
def w(name, lines):
    with open(os.path.join(d, name), "w") as f:
        for l in lines: f.write(l + "\n")
# 1 terminal injection
osc52 = "\x1b]52;c;" + "ZWNobyBwd25lZA==" + "\x07"
forge = "\r\x1b[2K\x1b[1AOK all.jsonl: 1 frame, 1 valid\n"
w("inject.jsonl", [
  json.dumps({"type": "x" + osc52 + forge}),
  json.dumps({"type": "ping", "zz\u202e\u2066evil\x1b[31m": 1, "\x9b2J": 2}),
])
# 2a 20k distinct 10KB types
w("types.jsonl", [json.dumps({"type": ("%06d" % i) + "t" * 10000}) for i in range(20000)])
# 2b message ids
hs = [json.dumps({"direction": "server_to_client", "data": json.dumps({"type": "hello", "version": "0.2.0", "auth_version": 1, "capabilities": []})}),
      json.dumps({"direction": "client_to_server", "data": json.dumps({"type": "connect", "api_key": "untethered-00112233445566778899aabbccddeeff"})}),
      json.dumps({"direction": "server_to_client", "data": json.dumps({"type": "replay", "message_id": "x", "message": {}})})]
w("ids.jsonl", hs + [json.dumps({"direction": "server_to_client", "data": json.dumps({"type": "zz", "message_id": ("%06d" % i) + "i" * 20000})}) for i in range(10000)])
# 2c padding: one long type + many short types
w("pad.jsonl", [json.dumps({"type": "L" * 900000})] + [json.dumps({"type": "t%d" % i}) for i in range(4000)])
# 3 HAR with escaped key
har = '{"log":{"entries":[{"_webSocket\\u004dessages":[{"type":"send","time":1,"opcode":1,"data":"{\\"type\\":\\"bogus\\"}"}]}]}}'
open(os.path.join(d, "escaped.har"), "w").write(har)
