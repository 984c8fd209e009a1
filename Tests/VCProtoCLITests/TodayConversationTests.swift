import Foundation
import Testing
import VCProto

@testable import VCProtoCLI

/// Conversations of today's protocol written by hand for this test (not by tools/make_cli_samples.py),
/// run through `vcproto validate` as a user would. Expectations come from the reference's version
/// history (versions.md sections 3, 4 and 6 of Reference's source; STANDARDS.md#negotiation and STANDARDS.md#versions),
/// never from the validator's output.
///
/// Each line is `< frame` (server to client) or `> frame` (client to server).
@Suite struct TodayConversationTests {
  /// Three connections in one capture: Android (announces nothing, sends explicit nulls: the floor
  /// 0.4.0), iOS (announces 0.5.0), and a 0.3.0 client the server refuses before the key check.
  /// 0.4.0: continuation after `is_complete: false` from `last_seq`, a live push with a seq gap (human
  /// prompts are filtered), a `client_ahead` resync, a copilot prompt, `turn_complete` before the push
  /// with the final answer, kill with an aborted `turn_complete`. 0.5.0: an `end_of_file: false` chain
  /// from `next_offset`, live pushes whose signature grows, a re-subscribe with an old signature that
  /// draws the `file_replaced` reload, the reload from 0, an opencode prompt, a subscribe ahead of the
  /// file, kill with an aborted `turn_complete`.
  static let today = #"""
    < {"type":"hello","message":"Welcome to voice-code backend","version":"0.5.0","auth_version":1,"instructions":"Send connect message with api_key"}
    > {"type":"connect","api_key":"voice-code-a1b2c3d4e5f678901234567890abcdef","session_id":null,"protocol_version":null,"recent_sessions_limit":null}
    < {"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.4.0"}
    < {"type":"session_list","sessions":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","name":"Flaky upload test","working_directory":"/home/ana/src/app","last_modified":1747400000000,"message_count":9,"provider":"claude"}],"total_count":1}
    < {"type":"recent_sessions","sessions":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","name":"Flaky upload test","working_directory":"/home/ana/src/app","last_modified":"2026-05-16T13:33:20Z","provider":"claude"}],"limit":5}
    < {"type":"available_commands","working_directory":null,"project_commands":[],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_seq":0}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","seq":1,"uuid":"7a1e0001-0000-4000-8000-000000000001","role":"user","text":"Why does the upload test fail on CI only?","timestamp":"2026-05-16T13:30:01.100Z","provider":"claude"},{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","seq":2,"uuid":"7a1e0002-0000-4000-8000-000000000002","role":"assistant","text":"It depends on the local clock.","timestamp":"2026-05-16T13:30:09.400Z","provider":"claude"}],"first_seq":1,"last_seq":2,"next_seq":5,"is_complete":false,"gap":null}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_seq":2}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","seq":3,"uuid":"7a1e0003-0000-4000-8000-000000000003","role":"user","text":"Pin the clock then.","timestamp":"2026-05-16T13:31:00.000Z","provider":"claude"},{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","seq":4,"uuid":"7a1e0004-0000-4000-8000-000000000004","role":"assistant","text":"Done; the test uses a fixed clock now.","timestamp":null,"provider":"claude"}],"first_seq":3,"last_seq":4,"next_seq":5,"is_complete":true,"gap":null}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","seq":6,"uuid":"7a1e0006-0000-4000-8000-000000000006","role":"assistant","text":"All 212 tests pass.","timestamp":"2026-05-16T13:34:02.000Z","provider":"claude"}],"first_seq":6,"last_seq":6,"next_seq":7,"is_complete":true,"gap":null}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_seq":40}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","seq":1,"uuid":"7a1e0001-0000-4000-8000-000000000001","role":"user","text":"Why does the upload test fail on CI only?","timestamp":"2026-05-16T13:30:01.100Z","provider":"claude"}],"first_seq":1,"last_seq":1,"next_seq":7,"is_complete":false,"gap":{"requested_last_seq":40,"min_available_seq":1,"reason":"client_ahead"}}
    > {"type":"prompt","text":"Add a retry to the uploader","new_session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","working_directory":"/home/ana/src/app","provider":"copilot"}
    < {"type":"ack","message":"Processing prompt..."}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_ready","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","message":"Session is ready for subscription"}
    < {"type":"session_created","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","name":"Add a retry to the uploader","working_directory":"/home/ana/src/app","last_modified":1747402000000,"message_count":0,"preview":"","provider":"copilot"}
    > {"type":"subscribe","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","last_seq":0}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","messages":[{"session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","seq":1,"uuid":"9b2f0001-0000-4000-8000-000000000001","role":"user","text":"Add a retry to the uploader","timestamp":"2026-05-16T13:40:00.000Z","provider":"copilot"}],"first_seq":1,"last_seq":1,"next_seq":2,"is_complete":true,"gap":null}
    < {"type":"turn_complete","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f"}
    < {"type":"session_history","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","messages":[{"session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","seq":2,"uuid":"9b2f0002-0000-4000-8000-000000000002","role":"assistant","text":"Added three retries with backoff.","timestamp":"2026-05-16T13:40:30.000Z","provider":"copilot"}],"first_seq":2,"last_seq":2,"next_seq":3,"is_complete":true,"gap":null}
    > {"type":"ping"}
    < {"type":"pong"}
    > {"type":"prompt","text":"Now run the whole suite","resume_session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f"}
    < {"type":"ack","message":"Processing prompt..."}
    > {"type":"kill_session","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f"}
    < {"type":"session_killed","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","message":"Session window killed"}
    < {"type":"turn_complete","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","aborted":true}
    > {"type":"unsubscribe","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f"}
    < {"type":"hello","message":"Welcome to voice-code backend","version":"0.5.0","auth_version":1,"instructions":"Send connect message with api_key"}
    > {"type":"connect","api_key":"voice-code-a1b2c3d4e5f678901234567890abcdef","protocol_version":"0.5.0","recent_sessions_limit":5}
    < {"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.5.0"}
    < {"type":"session_list","sessions":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","name":"Flaky upload test","working_directory":"/home/ana/src/app","last_modified":1747400000000,"message_count":9,"provider":"claude"}],"total_count":1}
    < {"type":"recent_sessions","sessions":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","name":"Flaky upload test","working_directory":"/home/ana/src/app","last_modified":"2026-05-16T13:33:20Z","provider":"claude"}],"limit":5}
    < {"type":"available_commands","working_directory":null,"project_commands":[],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    > {"type":"set_max_message_size","size_kb":200}
    < {"type":"ack","message":"Max message size set to 200 KB"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","from_offset":0}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":1,"uuid":"7a1e0001-0000-4000-8000-000000000001","role":"user","text":"Why does the upload test fail on CI only?","timestamp":"2026-05-16T13:30:01.100Z","provider":"claude"},{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":4,"uuid":"7a1e0002-0000-4000-8000-000000000002","role":"assistant","text":"It depends on the local clock.","timestamp":"2026-05-16T13:30:09.400Z","provider":"claude"}],"next_offset":7,"end_of_file":false,"file_signature":"8812:7a1e0000-0000-4000-8000-000000000000"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","from_offset":7,"file_signature_seen":"8812:7a1e0000-0000-4000-8000-000000000000"}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":7,"uuid":"7a1e0003-0000-4000-8000-000000000003","role":"user","text":"Pin the clock then.","timestamp":"2026-05-16T13:31:00.000Z","provider":"claude"},{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":10,"uuid":"7a1e0004-0000-4000-8000-000000000004","role":"assistant","text":"Done; the test uses a fixed clock now.","timestamp":null,"provider":"claude"}],"next_offset":11,"end_of_file":true,"file_signature":"8812:7a1e0000-0000-4000-8000-000000000000"}
    > {"type":"prompt","text":"Run the suite once more","resume_session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d"}
    < {"type":"ack","message":"Processing prompt..."}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":11,"uuid":"7a1e0005-0000-4000-8000-000000000005","role":"user","text":"Run the suite once more","timestamp":"2026-05-16T13:33:00.000Z","provider":"claude"}],"next_offset":12,"end_of_file":true,"file_signature":"9301:7a1e0000-0000-4000-8000-000000000000"}
    < {"type":"turn_complete","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d"}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":14,"uuid":"7a1e0006-0000-4000-8000-000000000006","role":"assistant","text":"All 212 tests pass.","timestamp":"2026-05-16T13:34:02.000Z","provider":"claude"}],"next_offset":15,"end_of_file":true,"file_signature":"9744:7a1e0000-0000-4000-8000-000000000000"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","from_offset":15,"file_signature_seen":"8812:7a1e0000-0000-4000-8000-000000000000"}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[],"next_offset":0,"end_of_file":true,"file_replaced":true,"file_signature":"9744:7a1e0000-0000-4000-8000-000000000000"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","from_offset":0,"file_signature_seen":"9744:7a1e0000-0000-4000-8000-000000000000"}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":1,"uuid":"7a1e0001-0000-4000-8000-000000000001","role":"user","text":"Why does the upload test fail on CI only?","timestamp":"2026-05-16T13:30:01.100Z","provider":"claude"},{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":14,"uuid":"7a1e0006-0000-4000-8000-000000000006","role":"assistant","text":"All 212 tests pass.","timestamp":"2026-05-16T13:34:02.000Z","provider":"claude"}],"next_offset":15,"end_of_file":true,"file_signature":"9744:7a1e0000-0000-4000-8000-000000000000"}
    > {"type":"prompt","text":"Write release notes","new_session_id":"c0ffee00-1111-4222-8333-444455556666","working_directory":"/home/ana/src/app","provider":"opencode"}
    < {"type":"ack","message":"Processing prompt..."}
    < {"type":"session_ready","session_id":"c0ffee00-1111-4222-8333-444455556666","message":"Session is ready for subscription"}
    < {"type":"session_created","session_id":"c0ffee00-1111-4222-8333-444455556666","name":"Write release notes","working_directory":"/home/ana/src/app","last_modified":1747403000000,"message_count":0,"preview":"","provider":"opencode"}
    > {"type":"subscribe","session_id":"c0ffee00-1111-4222-8333-444455556666","from_offset":30}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[{"id":"test","label":"Test","type":"command"}],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    < {"type":"session_history","session_id":"c0ffee00-1111-4222-8333-444455556666","messages":[],"next_offset":2,"end_of_file":true,"file_signature":null}
    > {"type":"kill_session","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d"}
    < {"type":"session_killed","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","message":"Session window killed"}
    < {"type":"turn_complete","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","aborted":true}
    < {"type":"hello","message":"Welcome to voice-code backend","version":"0.5.0","auth_version":1,"instructions":"Send connect message with api_key"}
    > {"type":"connect","api_key":"voice-code-a1b2c3d4e5f678901234567890abcdef","protocol_version":"0.3.0"}
    < {"type":"error","code":"unsupported_protocol_version","required":"0.4.0","received":"0.3.0","message":"Client is too old; upgrade required"}
    """#

  /// Planted faults: a 0.4.0 connection (lines 1-15), a 0.5.0 connection (16-29), a refusal without
  /// its members (30-32) and a handshake the server cannot produce (33-35).
  static let faulty = #"""
    < {"type":"hello","message":"Welcome to voice-code backend","version":"0.5.0","auth_version":1,"instructions":"Send connect message with api_key"}
    > {"type":"connect","api_key":"voice-code-a1b2c3d4e5f678901234567890abcdef"}
    < {"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.4.0"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_seq":-1}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_seq":"5"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_message_id":"7a1e0002-0000-4000-8000-000000000002"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_seq":0,"from_offset":0}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","seq":0,"uuid":"7a1e0001-0000-4000-8000-000000000001","role":"user","text":"Why?","timestamp":"2026-05-16T13:30:01.100Z","provider":"claude"}],"first_seq":1,"last_seq":1,"next_seq":2,"is_complete":true,"gap":null}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":1,"uuid":"7a1e0001-0000-4000-8000-000000000001","role":"user","text":"Why?","timestamp":"2026-05-16T13:30:01.100Z","provider":"claude"}],"next_offset":2,"end_of_file":true,"file_signature":"10:7a1e0001-0000-4000-8000-000000000001"}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[],"first_seq":null,"last_seq":null,"next_seq":7,"is_complete":true,"gap":{"requested_last_seq":40,"min_available_seq":1,"reason":"stale"}}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[],"first_seq":null,"last_seq":null,"next_seq":2,"gap":null}
    > {"type":"prompt","text":"Try Gemini","new_session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","provider":"gemini"}
    < {"type":"turn_complete","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","aborted":false}
    > {"type":"set_directory","path":"/home/ana/src/app"}
    < {"type":"session_locked","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","message":"Session is busy"}
    < {"type":"hello","message":"Welcome to voice-code backend","version":"0.5.0","auth_version":1,"instructions":"Send connect message with api_key"}
    > {"type":"connect","api_key":"voice-code-a1b2c3d4e5f678901234567890abcdef","protocol_version":"0.5.0"}
    < {"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.5.0"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","from_offset":5.0}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","from_offset":"5"}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_seq":4}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","offset":-1,"uuid":"7a1e0001-0000-4000-8000-000000000001","role":"user","text":"Why?","timestamp":"2026-05-16T13:30:01.100Z","provider":"claude"}],"next_offset":2,"end_of_file":true,"file_signature":"10:7a1e0001-0000-4000-8000-000000000001"}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","seq":1,"uuid":"7a1e0001-0000-4000-8000-000000000001","role":"user","text":"Why?","timestamp":"2026-05-16T13:30:01.100Z","provider":"claude"}],"first_seq":1,"last_seq":1,"next_seq":2,"is_complete":true,"gap":null}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[],"next_offset":2,"end_of_file":"yes","file_signature":"10:7a1e0001-0000-4000-8000-000000000001"}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[],"next_offset":2,"end_of_file":true}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[],"next_offset":2,"end_of_file":true,"file_signature":null,"file_replaced":false}
    < {"type":"turn_complete","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","aborted":"true"}
    > {"type":"prompt","text":"x","new_session_id":"c0ffee00-1111-4222-8333-444455556666","provider":7}
    < {"type":"session_locked","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","message":"Session is busy"}
    < {"type":"hello","message":"Welcome to voice-code backend","version":"0.5.0","auth_version":1,"instructions":"Send connect message with api_key"}
    > {"type":"connect","api_key":"voice-code-a1b2c3d4e5f678901234567890abcdef","protocol_version":"0.2.0"}
    < {"type":"error","code":"unsupported_protocol_version","message":"Client is too old; upgrade required"}
    < {"type":"hello","message":"Welcome to voice-code backend","version":"0.4.0","auth_version":1,"instructions":"Send connect message with api_key"}
    > {"type":"connect","api_key":"voice-code-a1b2c3d4e5f678901234567890abcdef","protocol_version":"0.5.0"}
    < {"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.5.0"}
    """#

  /// A conversation with a real 0.3.0 server (commits 84cf90e3..cf1d34fc: hello says 0.3.0, no
  /// `connected`, `last_message_id` cursor, canonical messages, providers, the supervisor frames,
  /// `aborted`), ending with a `set_directory` that 0.3.0 no longer has.
  static let threeZero = #"""
    < {"type":"hello","message":"Welcome to voice-code backend","version":"0.3.0","auth_version":1,"instructions":"Send connect message with api_key"}
    > {"type":"connect","api_key":"untethered-00112233445566778899aabbccddeeff","session_id":"6f1c2d4e-8a3b-4c5d-9e7f-0a1b2c3d4e5f"}
    < {"type":"session_list","sessions":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","name":"Flaky upload test","working_directory":"/home/ana/src/app","last_modified":1747400000000,"message_count":9}],"total_count":1}
    < {"type":"recent_sessions","sessions":[{"session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","name":"Flaky upload test","working_directory":"/home/ana/src/app","last_modified":"2026-04-20T13:33:20Z","provider":"claude"}],"limit":5}
    < {"type":"available_commands","working_directory":null,"project_commands":[],"general_commands":[{"id":"git.status","label":"Git Status","description":"Show git working tree status","type":"command"}]}
    > {"type":"subscribe","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","last_message_id":"7a1e0002-0000-4000-8000-000000000002"}
    < {"type":"session_history","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"uuid":"7a1e0003-0000-4000-8000-000000000003","role":"user","text":"Pin the clock then.","timestamp":"2026-04-20T13:31:00.000Z","provider":"claude"}],"total_count":1,"oldest_message_id":"7a1e0003-0000-4000-8000-000000000003","newest_message_id":"7a1e0003-0000-4000-8000-000000000003","is_complete":true}
    > {"type":"prompt","text":"Add a retry","new_session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","working_directory":"/home/ana/src/app","provider":"cursor"}
    < {"type":"available_commands","working_directory":"/home/ana/src/app","project_commands":[],"general_commands":[]}
    < {"type":"session_ready","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","message":"Session is ready for subscription"}
    < {"type":"session_created","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","name":"Add a retry","working_directory":"/home/ana/src/app","last_modified":1747402000000,"message_count":0,"preview":"","provider":"cursor"}
    > {"type":"subscribe","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f"}
    < {"type":"session_history","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","messages":[],"total_count":0,"oldest_message_id":null,"newest_message_id":null,"is_complete":true}
    < {"type":"session_updated","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d","messages":[{"uuid":"7a1e0006-0000-4000-8000-000000000006","role":"assistant","text":"All tests pass.","timestamp":"2026-04-20T13:34:02.000Z","provider":"claude"}]}
    < {"type":"turn_complete","session_id":"0b4e1a2c-5d6f-4a7b-9c8d-1e2f3a4b5c6d"}
    > {"type":"supervisor_message","text":"what is the status"}
    < {"type":"supervisor_thinking","active":true}
    < {"type":"tts_speak","text":"All clear.","priority":"notification"}
    < {"type":"canvas_update","components":[{"type":"text_block","props":{"text":"Status"}}]}
    > {"type":"canvas_action","callback_id":"cb-1","action":"confirm"}
    > {"type":"kill_session","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f"}
    < {"type":"session_killed","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","message":"Session window killed"}
    < {"type":"turn_complete","session_id":"5c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f","aborted":true}
    > {"type":"set_directory","path":"/home/ana"}
    < {"type":"error","message":"Unknown message type: set_directory"}
    """#

  /// The capture as JSON Lines records (`direction` and the frame as `data`).
  static func capture(_ script: String, dropHandshakes: Bool = false) -> String {
    script.split(separator: "\n").compactMap { line -> String? in
      let frame = line.dropFirst(2)
      if dropHandshakes && frame.contains(#""type":"hello""#) { return nil }
      let direction = line.hasPrefix(">") ? "client_to_server" : "server_to_client"
      return #"{"direction":"\#(direction)","data":\#(frame)}"#
    }.joined(separator: "\n") + "\n"
  }

  /// `vcproto validate --format json`: exit status, findings as "line pointer code severity", summary.
  func validate(_ text: String, _ options: [String] = []) throws -> (
    status: Int32, findings: Set<String>, summary: JSONValue?
  ) {
    let url = temporaryFile(text, name: "today.jsonl")
    let r = runCommand(["validate", "--format", "json"] + options + [url.path])
    let objects = try r.out.split(separator: "\n").map { try JSONReader().parse(String($0)) }
    let findings = objects.filter { $0["summary"] == nil }.map {
      "\($0["line"]?.intValue ?? 0) \($0["pointer"]?.stringValue ?? "?") \($0["code"]?.stringValue ?? "?") "
        + ($0["severity"]?.stringValue ?? "?")
    }
    return (r.status, Set(findings), objects.last?["summary"])
  }

  @Test func todaysConversationsValidateCleanWithTheVersionOfEachHandshake() throws {
    let lines = Self.today.split(separator: "\n").count
    // Whatever --protocol says: each connection's handshake decides (0.4.0 is the floor of a server
    // whose hello says 0.5.0, so --protocol 0.4.0 and 0.5.0 are floors it could have; 0.2.0 is none).
    for options in [[], ["--protocol", "0.2.0"], ["--protocol", "0.4.0"], ["--strict"]] {
      let r = try validate(Self.capture(Self.today), options)
      #expect(r.status == 0, "\(options)")
      #expect(r.findings.isEmpty, "\(options): \(r.findings.sorted())")
      #expect(r.summary?["frames"]?.intValue == lines)
      #expect(r.summary?["valid"]?.intValue == lines)
    }
    // Control: the same frames without the hellos are checked as one version, and then the frames of
    // the other version are wrong. So the clean run above really took each version from its handshake.
    let headless = Self.capture(Self.today, dropHandshakes: true)
    for version in ["0.4.0", "0.5.0"] {
      let r = try validate(headless, ["--protocol", version])
      #expect(r.status == 1, "\(version)")
      let wanted = version == "0.4.0" ? "/next_seq missing_field error" : "/next_offset missing_field error"
      #expect(r.findings.contains { $0.hasSuffix(wanted) }, "\(version): \(r.findings.sorted())")
    }
  }

  @Test func aRefusedOldClientIsACorrectRefusal() throws {
    // The last connection of `today` alone: hello 0.5.0, a client announcing 0.3.0, the coded refusal.
    let refusal = Self.today.split(separator: "\n").suffix(3).joined(separator: "\n")
    #expect(refusal.contains("unsupported_protocol_version"))
    let r = try validate(Self.capture(refusal))
    #expect(r.status == 0)
    #expect(r.findings.isEmpty, "\(r.findings.sorted())")
    // The same refusal of a client that announced 0.4.0 is one the server cannot produce.
    let wrong = refusal.replacingOccurrences(of: #""protocol_version":"0.3.0""#, with: #""protocol_version":"0.4.0""#)
    let mismatch = try validate(Self.capture(wrong))
    #expect(mismatch.status == 1)
    #expect(mismatch.findings.contains("3 /code negotiation_mismatch error"), "\(mismatch.findings.sorted())")
  }

  @Test func eachPlantedFaultIsReportedAtItsPointerWithItsCode() throws {
    let r = try validate(Self.capture(Self.faulty))
    #expect(r.status == 1)
    let expected: Set<String> = [
      // 0.4.0 (the floor: connect announces nothing). last_seq must be a non-negative integer.
      "4 /last_seq invalid_value error", "5 /last_seq wrong_type error",
      // A non-null last_message_id is refused on 0.4.0 (unsupported_subscribe_field).
      "6 /last_message_id invalid_value error",
      // from_offset is 0.5.0's: a 0.4.0 server ignores it.
      "7 /from_offset unexpected_field warning",
      // seq is 1-based.
      "8 /messages/0/seq invalid_value error",
      // A 0.5.0-shaped session_history on a 0.4.0 connection.
      "9 /first_seq missing_field error", "9 /last_seq missing_field error", "9 /next_seq missing_field error",
      "9 /is_complete missing_field error", "9 /gap missing_field error", "9 /messages/0/seq missing_field error",
      "9 /next_offset unexpected_field warning", "9 /end_of_file unexpected_field warning",
      "9 /file_signature unexpected_field warning", "9 /messages/0/offset unexpected_field warning",
      // gap.reason is pruned or client_ahead; is_complete is always sent in 0.4.0.
      "10 /gap/reason invalid_value error", "11 /is_complete missing_field error",
      // The provider set; aborted is only ever true; set_directory and session_locked left in 0.3.0.
      "12 /provider invalid_value error", "13 /aborted invalid_value error", "14 /type not_in_version error",
      "15 /type not_in_version error",
      // 0.5.0: from_offset must be a JSON integer (5.0 and "5" are refused); last_seq is ignored.
      "19 /from_offset wrong_type error", "20 /from_offset wrong_type error", "21 /last_seq unexpected_field warning",
      // offsets are non-negative line numbers.
      "22 /messages/0/offset invalid_value error",
      // A 0.4.0-shaped session_history on a 0.5.0 connection.
      "23 /next_offset missing_field error", "23 /end_of_file missing_field error",
      "23 /file_signature missing_field error", "23 /messages/0/offset missing_field error",
      "23 /first_seq unexpected_field warning", "23 /last_seq unexpected_field warning",
      "23 /next_seq unexpected_field warning", "23 /is_complete unexpected_field warning",
      "23 /gap unexpected_field warning", "23 /messages/0/seq unexpected_field warning",
      // end_of_file is a boolean; file_signature is always sent (null when unknown); file_replaced is
      // only ever true; aborted a boolean; provider a string; session_locked is gone.
      "24 /end_of_file wrong_type error", "25 /file_signature missing_field error",
      "26 /file_replaced invalid_value error", "27 /aborted wrong_type error", "28 /provider wrong_type error",
      "29 /type not_in_version error",
      // The too-old refusal always carries required and received.
      "32 /required missing_field error", "32 /received missing_field error",
      // hello.version is the ceiling: under 0.4.0 a client announcing 0.5.0 gets 0.4.0.
      "35 /negotiated_protocol_version negotiation_mismatch error",
    ]
    #expect(r.findings.subtracting(expected).isEmpty, "unexpected: \(r.findings.subtracting(expected).sorted())")
    #expect(expected.subtracting(r.findings).isEmpty, "missing: \(expected.subtracting(r.findings).sorted())")
  }

  @Test func aThreeZeroConversationIsCheckedAsThreeZero() throws {
    let r = try validate(Self.capture(Self.threeZero))
    #expect(r.status == 1)
    // Everything is 0.3.0's but the last frame: set_directory left in 0.3.0 (versions.md 2.1).
    #expect(r.findings == ["24 /type not_in_version error"], "\(r.findings.sorted())")
    #expect(r.summary?["frames"]?.intValue == Self.threeZero.split(separator: "\n").count)
  }
}
