import VCProtoJSON

// The protocol as the real voice-code system speaks it in 0.2.0, 0.3.0, 0.4.0 and 0.5.0, plus vcproto's
// negotiated extensions (in every version, only when negotiated). This is the single declaration of the
// protocol: the typed model, the validator, Schema/ and the field tables in STANDARDS.md are generated
// from or tested against it. What did not change is declared once with its versions (all, unless
// `versions:` says otherwise); what changed is declared again where it changed. The evidence for each
// change is in STANDARDS.md's version history.
//
// The facts the engines read (STANDARDS.md#state-machine) are declared here too, each with its evidence in
// the real backend (`path:line@commit` in reifying/untethered; `SRV` is backend/src/voice_code/server.clj):
// which frames cross before authentication (`requiresAuthentication: false`), each request's answer and
// refusal types (`answers`, `refusalTypes`: the `responses` and `errors` of the Reference catalogs),
// which requests are slow (`isSlow`), and the defaults, clamps and lengths of `connect`'s members.

extension ProtocolCatalog {
  /// Every version of the protocol; ``ProtocolDeclaration/projection(_:)`` yields one version's catalog.
  public static let declaration = ProtocolDeclaration(
    messages: [
      // Accepted before authentication: connect and ping only; anything else gets auth_error and close
      // (session-behaviour section 15; SRV:2177-2181@1e7bcc30).
      MessageSpec(
        "connect", .clientToServer, requiresAuthentication: false,
        rules: [.exactlyOne(["api_key", "auth_response"]), .requires("auth_response", "client_nonce")],
        doc:
          "Authenticates the socket. Auth v1 carries the API key itself; auth v2 answers the hello challenge with an HMAC. On success the 0.2.0 and 0.3.0 backends push session_list, recent_sessions and available_commands; from 0.4.0 connected comes first.",
        fields: [
          FieldSpec(
            "api_key", .text, required: false, secret: true,
            doc:
              "Auth v1: the pre-shared key (`untethered-` + 32 lowercase hex). Required unless auth_response is sent."),
          FieldSpec("session_id", .text, required: false, nullable: true),
          // Default 5 (SRV:2197,2253,3015@1e7bcc30); the real server stores any value unchecked
          // (catalog 0.2.0 notes); vcproto's server holds it within 1-50, the real session list's size
          // (SRV:2234,3022@1e7bcc30).
          FieldSpec(
            "recent_sessions_limit", .int, required: false, nullable: true, defaultValue: 5, clamp: 1...50,
            doc: "How many sessions recent_sessions lists; kept for the whole connection."),
          FieldSpec(
            "protocol_version", .text, versions: .removedIn(.v0_4_0), required: false, nullable: true,
            doc:
              "Negotiation: the client's preferred (highest) protocol version, parsed as the real server does (STANDARDS.md#negotiation). null counts as absent, as on every version (the real server under floor 0.3.0 gives a null announcement 0.3.0)."
          ),
          FieldSpec(
            "protocol_version", .text, versions: .since(.v0_4_0), required: false, nullable: true,
            doc:
              "The client's highest protocol version, any string: the real server parses it (text from the first - or + dropped, then exactly three integers), gives an unparseable one the floor, and refuses a parseable one below 0.4.0 (unsupported_protocol_version) before it checks the key. null counts as absent."
          ),
          FieldSpec(
            "protocol_versions", .array(.string(.version)), required: false,
            doc: "Negotiation: every protocol version the client supports."),
          FieldSpec(
            "capabilities", .array(.text), required: false,
            doc: "Negotiation: the extensions the client asks for."),
          FieldSpec(
            "auth_version", .integer(minimum: 1), required: false, defaultValue: 1,
            doc: "Auth v2: 2 when the client answers the challenge with auth_response."),
          // vcproto's auth v2 (STANDARDS.md#auth-v2): 128 bits at least (32 hex), 512 at most (128 hex).
          FieldSpec(
            "client_nonce", .string(.hex), required: false, lengths: 32...128,
            doc: "Auth v2: at least 128 fresh random bits from the client, lowercase hex."),
          FieldSpec(
            "auth_response", .string(.hex), required: false, secret: true,
            doc: "Auth v2: HMAC-SHA256 over the client MAC input (STANDARDS.md), lowercase hex."),
        ]),
      MessageSpec(
        "ping", .clientToServer, requiresAuthentication: false,
        doc: "Application-level keepalive; answered with pong. Allowed before authentication.",
        fields: [

        ]),
      MessageSpec(
        "subscribe", .clientToServer,
        doc:
          "Asks for a session's history and live updates; answered with session_history. The resume cursor changed in every version: last_message_id (0.2.0, 0.3.0), last_seq (0.4.0), from_offset with file_signature_seen (0.5.0).",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec(
            "last_message_id", .text, versions: .removedIn(.v0_4_0), required: false, nullable: true,
            doc: "The newest message the client holds; an unknown id means the full history."),
          FieldSpec(
            "last_message_id", .text, versions: .only(.v0_4_0), required: false, nullable: true, allowedValues: [],
            doc:
              "Gone in 0.4.0: the server answers a non-null value with error unsupported_subscribe_field (null is tolerated). Use last_seq."
          ),
          FieldSpec(
            "last_seq", .integer(minimum: 0), versions: .only(.v0_4_0), required: false, nullable: true,
            defaultValue: 0,
            doc:
              "The highest seq the client holds (0: everything). Not a non-negative integer: error invalid_subscribe."),
          FieldSpec(
            "from_offset", .integer(minimum: 0), versions: .since(.v0_5_0), required: false, nullable: true,
            defaultValue: 0,
            doc:
              "The raw line offset to read from (the highest next_offset merged; 0 or null: from the start). Not a non-negative integer: error invalid_subscribe."
          ),
          FieldSpec(
            "file_signature_seen", .text, versions: .since(.v0_5_0), required: false, nullable: true,
            doc:
              "The file_signature the client stored; when it differs from the current one the reply is a file_replaced reload. Not a string: error invalid_subscribe."
          ),
        ]),
      MessageSpec(
        "unsubscribe", .clientToServer,
        doc: "Stops live updates for a session.",
        fields: [
          FieldSpec("session_id", .text, required: false, nullable: true)
        ]),
      MessageSpec(
        "session_deleted", .clientToServer,
        doc: "Tells the backend the client removed a session locally, so it stops pushing it.",
        fields: [
          FieldSpec("session_id", .text, required: false, nullable: true)
        ]),
      MessageSpec(
        "prompt", .clientToServer,
        rules: [.mutuallyExclusive(["new_session_id", "resume_session_id"])],
        refusals: [
          "Must send connect message first",
          "text required in prompt message",
          "Cannot specify both new_session_id and resume_session_id",
          "Invalid provider: '<p>'. Valid providers: <list>",
          "No AI CLI tools installed. Please install Claude Code or GitHub Copilot CLI.",
          "<provider> CLI not installed. Please install the <cli> CLI to use <provider> sessions.",
        ],
        // ack {message:"Processing prompt..."} (SRV:1283@1e28b288, catalog 0.5.0); 0.2.0's per-session
        // lock refused it with session_locked (server.clj:496-503@1e28b288).
        answers: ["ack"], refusalTypes: ["session_locked"],
        doc: "Sends user text to a Claude session: a new one (new_session_id) or an existing one (resume_session_id).",
        fields: [
          FieldSpec("text", .text),
          FieldSpec("new_session_id", .text, required: false, nullable: true),
          FieldSpec("resume_session_id", .text, required: false, nullable: true),
          FieldSpec("working_directory", .text, required: false, nullable: true),
          FieldSpec(
            "provider", .text, versions: .since(.v0_3_0), required: false, nullable: true,
            allowedValues: ["claude", "copilot", "cursor", "opencode"],
            doc:
              "The CLI that runs a new session (honoured only with new_session_id); the server refuses any other value."
          ),
          FieldSpec("system_prompt", .text, required: false, nullable: true),
          FieldSpec(
            "session_id", .text, required: false, nullable: true,
            doc: "Ignored by the backend: use new_session_id or resume_session_id."),
          FieldSpec(
            "ios_session_id", .text, required: false, nullable: true,
            doc: "Ignored by the backend (sent by one iOS code path)."),
          FieldSpec(
            "idempotency_key", .text, required: false, capability: "idempotent_prompt",
            doc:
              "Extension: a client-chosen unique key; a server that negotiated idempotent_prompt runs a prompt at most once per key."
          ),
        ]),
      MessageSpec(
        "set_directory", .clientToServer, versions: .removedIn(.v0_3_0),
        refusals: ["path required in set_directory message"],
        // ack {message:"Directory set"} (SRV:1339@1e28b288, catalog 0.2.0), then available_commands.
        answers: ["ack"],
        doc: "Sets the working directory the backend uses for project commands (removed in 0.3.0).",
        fields: [
          FieldSpec("path", .text)
        ]),
      MessageSpec(
        "set_max_message_size", .clientToServer,
        refusals: [
          "size_kb (positive integer) required in set_max_message_size message"
        ],
        // ack {message:"Max message size set to <N> KB"} (SRV:1378@1e28b288, catalog 0.5.0).
        answers: ["ack"],
        doc: "Sets the largest frame, in KiB, the backend may send this client; larger frames are truncated.",
        fields: [
          FieldSpec("size_kb", .integer(minimum: 1))
        ]),
      MessageSpec(
        "message_ack", .clientToServer, status: .unhandled,
        doc:
          "Acknowledges a frame that carried a message_id. The 0.2.0 backend does not dispatch it (it listens for message-ack); with the message_ack capability it confirms delivery.",
        fields: [
          FieldSpec("message_id", .text, doc: "The message_id of the frame being acknowledged.")
        ]),
      MessageSpec(
        "compact_session", .clientToServer,
        refusals: [
          "session_id required in compact_session message"
        ],
        // compaction_complete or compaction_error (catalog 0.2.0-0.5.0, responses); 0.2.0: session_locked.
        // Slow: the compaction CLI runs up to an hour (backend/src/voice_code/claude.clj:326@1e7bcc30).
        answers: ["compaction_complete"], refusalTypes: ["compaction_error", "session_locked"], isSlow: true,
        isSessionScoped: true,
        doc: "Asks the backend to compact a Claude session's context.",
        fields: [
          FieldSpec("session_id", .text)
        ]),
      MessageSpec(
        "kill_session", .clientToServer,
        refusals: [
          "session_id required in kill_session message",
          "Failed to kill session: <error>",
        ],
        // session_killed {session_id} (catalog 0.2.0-0.5.0, responses).
        answers: ["session_killed"], isSessionScoped: true,
        doc: "Terminates the Claude process running a session.",
        fields: [
          FieldSpec("session_id", .text)
        ]),
      MessageSpec(
        "infer_session_name", .clientToServer,
        // session_name_inferred or infer_name_error (catalog 0.2.0-0.5.0, responses and errors).
        answers: ["session_name_inferred"], refusalTypes: ["infer_name_error"], isSessionScoped: true,
        doc: "Asks the backend to name a session from a message's text.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec("message_text", .text),
        ]),
      MessageSpec(
        "create_worktree_session", .clientToServer,
        // worktree_session_created or worktree_session_error (catalog 0.2.0-0.5.0). Slow: the session's
        // Claude run is invoke-claude's, up to an hour (backend/src/voice_code/claude.clj:100@1e7bcc30).
        answers: ["worktree_session_created"], refusalTypes: ["worktree_session_error"], isSlow: true,
        doc: "Creates a git worktree with a new session in it.",
        fields: [
          FieldSpec("session_name", .text),
          FieldSpec("parent_directory", .text),
        ]),
      MessageSpec(
        "execute_command", .clientToServer,
        refusals: [
          "command_id required in execute_command message",
          "working_directory required in execute_command message",
        ],
        // command_started, or command_error when the spawn fails (catalog 0.2.0-0.5.0).
        answers: ["command_started"], refusalTypes: ["command_error"],
        doc: "Runs a project or general command (from available_commands) in a directory.",
        fields: [
          FieldSpec("command_id", .text),
          FieldSpec("working_directory", .text),
        ]),
      MessageSpec(
        "get_command_history", .clientToServer,
        // command_history (catalog 0.2.0-0.5.0).
        answers: ["command_history"],
        doc: "Asks for recent command runs.",
        fields: [
          FieldSpec("working_directory", .text, required: false, nullable: true),
          FieldSpec("limit", .int, required: false, nullable: true, defaultValue: 50),
        ]),
      MessageSpec(
        "get_command_output", .clientToServer,
        refusals: [
          "command_session_id required in get_command_output message",
          "Command output not found: <command_session_id>",
        ],
        // command_output_full (catalog 0.2.0-0.5.0).
        answers: ["command_output_full"],
        doc: "Asks for the full output of one command run.",
        fields: [
          FieldSpec("command_session_id", .text)
        ]),
      MessageSpec(
        "upload_file", .clientToServer,
        refusals: [
          "filename, content, and storage_location required in upload_file message",
          "Failed to upload file: <reason>",
        ],
        // file_uploaded (catalog 0.2.0-0.5.0).
        answers: ["file_uploaded"],
        doc: "Uploads a file (base64 content) into a project's resources folder.",
        fields: [
          FieldSpec("filename", .text),
          FieldSpec("content", .text),
          FieldSpec("storage_location", .text),
        ]),
      MessageSpec(
        "list_resources", .clientToServer,
        refusals: [
          "storage_location required in list_resources message",
          "Failed to list resources: <reason>",
        ],
        // resources_list (catalog 0.2.0-0.5.0).
        answers: ["resources_list"],
        doc: "Lists uploaded resources of a project.",
        fields: [
          FieldSpec("storage_location", .text)
        ]),
      MessageSpec(
        "delete_resource", .clientToServer,
        refusals: [
          "filename and storage_location required in delete_resource message",
          "Failed to delete resource: <reason>",
        ],
        // resource_deleted (catalog 0.2.0-0.5.0).
        answers: ["resource_deleted"],
        doc: "Deletes an uploaded resource.",
        fields: [
          FieldSpec("filename", .text),
          FieldSpec("storage_location", .text),
        ]),
      MessageSpec(
        "start_recipe", .clientToServer,
        refusals: [
          "session_id required in start_recipe message",
          "recipe_id required in start_recipe message",
          "working_directory required for new session",
          "Recipe not found: <recipe-id>",
        ],
        // recipe_started, then ack {message:"Starting recipe..."} from the same handler (server.clj:
        // 1763-1768 then 1784@1e28b288; 2974-2979 then 2992@1e7bcc30; catalog 0.2.0-0.5.0); 0.2.0:
        // session_locked.
        answers: ["recipe_started"], refusalTypes: ["session_locked"], followedBy: ["ack"],
        doc: "Starts a multi-step recipe (an orchestrated workflow) in a session.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec(
            "recipe_id", .text,
            knownValues: [
              "review-and-commit", "document-design", "break-down-tasks", "implement-and-review",
              "implement-and-review-all", "rebase", "retrospective", "refine-design",
            ]),
          FieldSpec("working_directory", .text, required: false, nullable: true),
          FieldSpec(
            "provider", .text, versions: .since(.v0_3_0), required: false, nullable: true,
            knownValues: ["claude", "copilot", "cursor", "opencode"],
            doc: "The CLI for a new session the recipe starts (not checked by the server)."),
        ]),
      MessageSpec(
        "exit_recipe", .clientToServer,
        refusals: [
          "session_id required in exit_recipe message"
        ],
        // recipe_exited {reason:"user-requested"} (catalog 0.2.0-0.5.0).
        answers: ["recipe_exited"],
        doc: "Leaves the running recipe of a session.",
        fields: [
          FieldSpec("session_id", .text)
        ]),
      MessageSpec(
        "get_available_recipes", .clientToServer,
        // available_recipes (catalog 0.2.0-0.5.0).
        answers: ["available_recipes"],
        doc: "Asks for the recipes the backend offers.",
        fields: [

        ]),
      MessageSpec(
        "refresh_sessions", .clientToServer,
        // session_list, then recent_sessions (catalog 0.2.0-0.5.0).
        answers: ["session_list"],
        doc: "Asks for fresh session_list and recent_sessions without reconnecting.",
        fields: [
          FieldSpec("recent_sessions_limit", .int, required: false, nullable: true, defaultValue: 5)
        ]),
      MessageSpec(
        "supervisor_message", .clientToServer, versions: .since(.v0_3_0),
        doc: "Text for the backend's LLM supervisor (sent by the web frontend only).",
        fields: [
          FieldSpec("text", .text)
        ]),
      MessageSpec(
        "canvas_action", .clientToServer, versions: .since(.v0_3_0),
        doc: "A user's action on a supervisor canvas component (web frontend only).",
        fields: [
          FieldSpec("callback_id", .text),
          FieldSpec("action", .text),
        ]),
      MessageSpec(
        "disconnect", .clientToServer, status: .extension, capability: "disconnect",
        doc:
          "Extension: the client is closing on purpose (e.g. going to the background); the server drops its state without treating it as a failure.",
        fields: [
          FieldSpec(
            "reason", .text, knownValues: ["background", "user", "network_change"],
            doc: "Why the client disconnects (open set).")
        ]),
      // Sent before authentication: hello, pong (SRV:2177-2181@1e7bcc30), auth_error, error (a frame that
      // is not JSON, SRV:3081-3086; unsupported_protocol_version) and connected, the verdict.
      MessageSpec(
        "hello", .serverToClient, requiresAuthentication: false,
        doc:
          "First frame on every connection: the server's version, auth version and instructions; with negotiation, what it supports and (auth v2) a fresh challenge.",
        fields: [
          FieldSpec("message", .text, knownValues: ["Welcome to voice-code backend"]),
          FieldSpec(
            "version", .string(.version), knownValues: ProtocolVersion.allStrings,
            doc:
              "The server's highest protocol version (its ceiling; 0.2.0 and 0.3.0 servers spoke only that one). A client compares it with its own floor."
          ),
          FieldSpec(
            "auth_version", .integer(minimum: 1),
            doc: "1 while the server accepts the API key in connect; 2 when it accepts only auth v2."),
          FieldSpec("instructions", .text, knownValues: ["Send connect message with api_key"]),
          FieldSpec(
            "protocol_versions", .array(.string(.version)), required: false,
            doc: "Negotiation: every protocol version the server supports."),
          FieldSpec(
            "auth_versions", .array(.integer(minimum: 1)), required: false,
            doc: "Negotiation: every auth version the server accepts."),
          FieldSpec(
            "capabilities", .array(.text), required: false,
            doc: "Negotiation: the extensions the server offers."),
          FieldSpec(
            "challenge", .string(.hex), required: false,
            doc: "Auth v2: 256 fresh random bits, lowercase hex, single use, expiring."),
        ]),
      MessageSpec(
        "connected", .serverToClient, status: .documentedNotImplemented, statusChanges: [.v0_4_0: .implemented],
        requiresAuthentication: false,
        doc:
          "Confirms authentication and the negotiated parameters. Documented but never sent by the 0.2.0 and 0.3.0 backends (vcproto servers send it when the client negotiated); sent by every 0.4.0 server right after authentication, before session_list.",
        fields: [
          FieldSpec("message", .text, knownValues: ["Session registered"]),
          FieldSpec("session_id", .text, versions: .removedIn(.v0_3_0)),
          FieldSpec(
            "session_id", .text, versions: .since(.v0_3_0), nullable: true,
            doc: "The connect frame's session_id, or null when it had none."),
          FieldSpec(
            "negotiated_protocol_version", .string(.version), versions: .removedIn(.v0_4_0), required: false,
            doc: "Negotiation: the version both peers speak from now on."),
          FieldSpec(
            "negotiated_protocol_version", .string(.version), versions: .since(.v0_4_0),
            knownValues: ["0.3.0", "0.4.0", "0.5.0"],
            doc: "The version this connection speaks from now on, chosen by the server from connect.protocol_version."),
          FieldSpec(
            "capabilities", .array(.text), required: false,
            doc: "Negotiation: the extensions accepted for this connection."),
          FieldSpec(
            "auth_version", .integer(minimum: 1), required: false,
            doc: "The auth version that was used."),
          FieldSpec(
            "server_proof", .string(.hex), required: false,
            doc: "Auth v2: the server's HMAC proving it knows the key (STANDARDS.md)."),
        ]),
      MessageSpec(
        "auth_error", .serverToClient, requiresAuthentication: false,
        doc: "Authentication failed; the server closes the socket right after it. Deliberately generic.",
        fields: [
          FieldSpec("message", .text, knownValues: ["Authentication failed"])
        ]),
      MessageSpec(
        "pong", .serverToClient, requiresAuthentication: false,
        doc: "Answer to ping.",
        fields: [

        ]),
      MessageSpec(
        "ack", .serverToClient,
        doc: "Acknowledges that a request was accepted and is being processed.",
        fields: [
          FieldSpec(
            "message", .text,
            knownValues: [
              "Processing prompt...", "Directory set", "Max message size set to <N> KB", "Starting recipe...",
              "Starting recipe in new session...",
            ])
        ]),
      MessageSpec(
        "error", .serverToClient, requiresAuthentication: false,
        rules: [.requiredWhen("code", equals: "unsupported_protocol_version", ["required", "received"])],
        doc: "A request failed. message is for people; code (when present) is for programs.",
        fields: [
          FieldSpec("message", .text, doc: "Human-readable; the real backend's texts are listed in STANDARDS.md."),
          FieldSpec("session_id", .text, required: false, doc: "The session the failure concerns, when there is one."),
          FieldSpec(
            "code", .text, versions: .removedIn(.v0_4_0), required: false,
            knownValues: ["unsupported_protocol_version", "auth_downgrade_refused"],
            doc: "Machine-readable error code (open set; the real 0.2.0 and 0.3.0 backends send none)."),
          FieldSpec(
            "code", .text, versions: .only(.v0_4_0), required: false,
            knownValues: [
              "unsupported_protocol_version", "invalid_subscribe", "unsupported_subscribe_field",
              "auth_downgrade_refused",
            ],
            doc: "Machine-readable error code (open set)."),
          FieldSpec(
            "code", .text, versions: .since(.v0_5_0), required: false,
            knownValues: ["unsupported_protocol_version", "invalid_subscribe", "auth_downgrade_refused"],
            doc:
              "Machine-readable error code (open set; unsupported_subscribe_field cannot occur on 0.5.0, where last_message_id is ignored)."
          ),
          FieldSpec(
            "required", .string(.version), required: false,
            doc:
              "With unsupported_protocol_version: the server's minimum version (the real server always says 0.4.0)."),
          FieldSpec(
            "received", .text, required: false,
            doc: "With unsupported_protocol_version: the version the client announced."),
          FieldSpec(
            "supported", .array(.string(.version)), required: false,
            doc: "With unsupported_protocol_version: every version the server supports."),
          FieldSpec(
            "requested", .array(.text), required: false,
            doc: "With unsupported_protocol_version: every version the client offered."),
          FieldSpec(
            "message_id", .string(.uuid), required: false, capability: "message_ack",
            doc: "Extension: acknowledge with message_ack."),
        ]),
      MessageSpec(
        "session_list", .serverToClient,
        doc: "All sessions the backend knows, sent after connect and on refresh.",
        fields: [
          FieldSpec("sessions", .array(.shape("SessionSummary"))),
          FieldSpec("total_count", .integer(minimum: 0)),
        ]),
      MessageSpec(
        "recent_sessions", .serverToClient,
        doc: "The most recently modified sessions, up to the client's limit.",
        fields: [
          FieldSpec("sessions", .array(.shape("RecentSession"))),
          FieldSpec("limit", .int),
        ]),
      MessageSpec(
        "available_commands", .serverToClient,
        doc: "Project commands (from the working directory's Makefile) and general commands the client may run.",
        fields: [
          FieldSpec("working_directory", .text, nullable: true),
          FieldSpec("project_commands", .array(.shape("CommandNode"))),
          FieldSpec("general_commands", .array(.shape("CommandNode"))),
        ]),
      MessageSpec(
        "session_history", .serverToClient,
        doc:
          "A session's messages, answering subscribe (and from 0.4.0 also the live push). 0.2.0: raw Claude Code records; from 0.3.0 canonical messages. The envelope's cursor members changed in 0.4.0 (seq) and 0.5.0 (offset).",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec("messages", .array(.shape("ClaudeRecord")), versions: .only(.v0_2_0)),
          FieldSpec("messages", .array(.shape("HistoryMessage")), versions: .since(.v0_3_0)),
          FieldSpec("total_count", .integer(minimum: 0), versions: .removedIn(.v0_4_0)),
          FieldSpec("oldest_message_id", .text, versions: .removedIn(.v0_4_0), nullable: true),
          FieldSpec("newest_message_id", .text, versions: .removedIn(.v0_4_0), nullable: true),
          FieldSpec(
            "first_seq", .integer(minimum: 1), versions: .only(.v0_4_0), nullable: true,
            doc: "The seq of the first message, null when there is none."),
          FieldSpec(
            "last_seq", .integer(minimum: 0), versions: .only(.v0_4_0), nullable: true,
            doc: "The seq of the last message, null when there is none; the next subscribe's last_seq."),
          FieldSpec(
            "next_seq", .integer(minimum: 1), versions: .only(.v0_4_0), doc: "The seq the next message will get."),
          FieldSpec(
            "is_complete", .boolean, versions: .removedIn(.v0_5_0),
            doc:
              "0.4.0: false means the budget cut the reply; re-subscribe with last_seq. Before: false means the oldest messages were dropped."
          ),
          FieldSpec(
            "gap", .shape("HistoryGap"), versions: .only(.v0_4_0), nullable: true,
            doc: "Set when the client's last_seq does not fit the server's range."),
          FieldSpec(
            "next_offset", .integer(minimum: 0), versions: .since(.v0_5_0),
            doc:
              "The offset to resume from (the next subscribe's from_offset). Smaller than the from_offset sent when the client was ahead."
          ),
          FieldSpec(
            "end_of_file", .boolean, versions: .since(.v0_5_0),
            doc: "false: more lines follow (or a half-written line was held back); re-subscribe from next_offset."),
          FieldSpec(
            "file_signature", .text, versions: .since(.v0_5_0), nullable: true,
            doc:
              "The file's signature, `<byte length>:<first-line uuid>`; it changes on every append, not only on a rewrite."
          ),
          FieldSpec(
            "file_replaced", .boolean, versions: .since(.v0_5_0), required: false, allowedValues: [true],
            doc: "Only true, only on the reload reply: the file changed under the client, which must drop its rows."),
        ]),
      MessageSpec(
        "session_updated", .serverToClient,
        doc:
          "New messages of a subscribed session. The live push until 0.3.0 (raw records in 0.2.0, canonical in 0.3.0); from 0.4.0 only the raw records of a just-created session (session_history carries the pushes).",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec(
            "messages", .array(.shape("ClaudeRecord")), versions: .only(.v0_2_0).union(.since(.v0_4_0))),
          FieldSpec(
            "messages", .array(.oneOf([.shape("HistoryMessage"), .shape("ClaudeRecord")])),
            versions: .only(.v0_3_0),
            doc: "Canonical messages; the just-created-session path still sends raw records."),
        ]),
      MessageSpec(
        "session_created", .serverToClient,
        doc: "A new session appeared on the backend.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec("name", .text),
          FieldSpec("working_directory", .text),
          FieldSpec("last_modified", .int),
          FieldSpec("message_count", .integer(minimum: 0)),
          FieldSpec("preview", .text, nullable: true),
          FieldSpec(
            "provider", .text, versions: .since(.v0_3_0), knownValues: ["claude", "copilot", "cursor", "opencode"],
            defaultValue: "claude"),
        ]),
      MessageSpec(
        "session_ready", .serverToClient,
        doc: "A new session requested by prompt exists and can be subscribed to.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec("message", .text, knownValues: ["Session is ready for subscription"]),
        ]),
      MessageSpec(
        "turn_complete", .serverToClient,
        doc:
          "The provider finished its turn in a session. From 0.3.0 sent to every subscribed channel, and possibly before the push carrying the final answer.",
        fields: [
          FieldSpec("session_id", .text, versions: .only(.v0_2_0), nullable: true),
          FieldSpec("session_id", .text, versions: .since(.v0_3_0)),
          FieldSpec(
            "aborted", .boolean, versions: .since(.v0_3_0), required: false, allowedValues: [true],
            doc: "Only true: the turn was cut short (kill_session or compaction killed the live window)."),
        ]),
      MessageSpec(
        "session_locked", .serverToClient, versions: .removedIn(.v0_3_0),
        // Always names the locked session (server.clj:496-503@1e28b288).
        endsOnlyItsSessionsRequest: true,
        doc: "A prompt was refused because the session is busy (removed in 0.3.0).",
        fields: [
          FieldSpec("message", .text, knownValues: ["Session is currently processing a prompt. Please wait."]),
          FieldSpec("session_id", .text),
        ]),
      MessageSpec(
        "session_killed", .serverToClient,
        doc: "The session's process was terminated, answering kill_session.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec(
            "message", .text,
            knownValues: ["Session process terminated", "Session window killed", "No live window for session"]),
        ]),
      MessageSpec(
        "session_name_inferred", .serverToClient,
        doc: "The inferred name of a session.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec("name", .text),
        ]),
      MessageSpec(
        "infer_name_error", .serverToClient,
        doc: "Naming a session failed.",
        fields: [
          FieldSpec("error", .text),
          FieldSpec("session_id", .text, required: false),
        ]),
      MessageSpec(
        "compaction_complete", .serverToClient,
        doc: "Compaction of a session finished.",
        fields: [
          FieldSpec("session_id", .text)
        ]),
      MessageSpec(
        "compaction_error", .serverToClient,
        doc: "Compaction of a session failed.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec("error", .text),
        ]),
      MessageSpec(
        "worktree_session_created", .serverToClient,
        doc: "A worktree session was created.",
        fields: [
          FieldSpec("success", .boolean, allowedValues: [true]),
          FieldSpec("session_id", .text),
          FieldSpec("worktree_path", .text),
          FieldSpec("branch_name", .text),
        ]),
      MessageSpec(
        "worktree_session_error", .serverToClient,
        doc: "Creating a worktree session failed, with the failing step.",
        fields: [
          FieldSpec("success", .boolean, allowedValues: [false]),
          FieldSpec("error", .text),
          FieldSpec(
            "error_type", .text, knownValues: ["validation_failed", "git_failed", "beads_failed", "claude_failed"]),
          FieldSpec("details", .shape("WorktreeErrorDetails"), required: false, nullable: true),
        ]),
      MessageSpec(
        "command_started", .serverToClient,
        doc: "A command run started; later frames carry its command_session_id.",
        fields: [
          FieldSpec("command_session_id", .text),
          FieldSpec("command_id", .text),
          FieldSpec("shell_command", .text),
        ]),
      MessageSpec(
        "command_output", .serverToClient,
        doc: "One line of a running command's output. May arrive before command_started.",
        fields: [
          FieldSpec("command_session_id", .text),
          FieldSpec("stream", .text, allowedValues: ["stdout", "stderr"]),
          FieldSpec("text", .text),
        ]),
      MessageSpec(
        "command_complete", .serverToClient,
        doc: "A command run finished.",
        fields: [
          FieldSpec("command_session_id", .text),
          FieldSpec("exit_code", .int),
          FieldSpec("duration_ms", .int),
        ]),
      MessageSpec(
        "command_error", .serverToClient,
        doc: "A command could not be started.",
        fields: [
          FieldSpec("command_id", .text),
          FieldSpec("error", .text),
        ]),
      MessageSpec(
        "command_history", .serverToClient,
        doc: "Recent command runs, answering get_command_history.",
        fields: [
          FieldSpec("sessions", .array(.shape("CommandHistoryEntry"))),
          FieldSpec("limit", .int),
        ]),
      MessageSpec(
        "command_output_full", .serverToClient,
        doc: "The stored output of one command run; exit_code and duration_ms are null while it still runs.",
        fields: [
          FieldSpec("command_session_id", .text),
          FieldSpec("output", .text),
          FieldSpec("exit_code", .int, nullable: true),
          FieldSpec("timestamp", .string(.dateTime)),
          FieldSpec("duration_ms", .int, nullable: true),
          FieldSpec("command_id", .text),
          FieldSpec("shell_command", .text),
          FieldSpec("working_directory", .text),
        ]),
      MessageSpec(
        "file_uploaded", .serverToClient,
        doc: "A file upload was stored.",
        fields: [
          FieldSpec("filename", .text),
          FieldSpec("path", .text),
          FieldSpec("size", .integer(minimum: 0)),
          FieldSpec("timestamp", .string(.dateTime)),
        ]),
      MessageSpec(
        "resources_list", .serverToClient,
        doc: "The uploaded resources of a project.",
        fields: [
          FieldSpec("resources", .array(.shape("Resource"))),
          FieldSpec("storage_location", .text),
        ]),
      MessageSpec(
        "resource_deleted", .serverToClient,
        doc: "A resource was deleted.",
        fields: [
          FieldSpec("filename", .text),
          FieldSpec("path", .text),
        ]),
      MessageSpec(
        "available_recipes", .serverToClient,
        doc: "The recipes the backend offers.",
        fields: [
          FieldSpec("recipes", .array(.shape("Recipe")))
        ]),
      MessageSpec(
        "recipe_started", .serverToClient,
        doc: "A recipe started in a session.",
        fields: [
          FieldSpec("recipe_id", .text),
          FieldSpec("recipe_label", .text),
          FieldSpec("session_id", .text),
          FieldSpec(
            "current_step", .text,
            knownValues: recipeSteps),
          FieldSpec("step_count", .integer(minimum: 0)),
        ]),
      MessageSpec(
        "recipe_step_started", .serverToClient,
        doc: "A recipe step started.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec(
            "step", .text,
            knownValues: recipeSteps),
          FieldSpec("step_count", .integer(minimum: 0)),
        ]),
      MessageSpec(
        "recipe_step_transition", .serverToClient,
        doc: "A recipe moved from one step to the next.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec(
            "from_step", .text,
            knownValues: recipeSteps),
          FieldSpec(
            "to_step", .text,
            knownValues: recipeSteps),
        ]),
      MessageSpec(
        "orchestration_retry", .serverToClient,
        doc: "A recipe step is retried after an error.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec(
            "step", .text,
            knownValues: recipeSteps),
          FieldSpec("error", .text, nullable: true),
        ]),
      MessageSpec(
        "recipe_exited", .serverToClient,
        doc: "A recipe ended; reason says why.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec(
            "reason", .text,
            knownValues: [
              "user-requested", "error", "internal-error", "no-prompt", "orchestration-error", "restart-new-session",
              "max-total-steps", "max-step-visits-exceeded:<step-name>", "No transition found for outcome: <outcome>",
              "Invalid transition", "changes-committed", "clarification-needed", "conflicts-require-human-intervention",
              "design-committed", "implementation-blocked", "no-changes-to-commit", "no-design-document-found",
              "no-tasks-available", "rebase-complete", "tasks-committed", "user-provided-other",
            ]),
          FieldSpec("error", .text, required: false),
        ]),
      MessageSpec(
        "response", .serverToClient, status: .documentedNotImplemented,
        doc:
          "Claude's answer to a prompt. Documented and handled by clients but never sent by the real backend; carries message_id for acknowledgement.",
        fields: [
          FieldSpec("message_id", .text, required: false, doc: "Acknowledge with message_ack."),
          FieldSpec("success", .boolean),
          FieldSpec("text", .text, required: false),
          FieldSpec("error", .text, required: false),
          FieldSpec("session_id", .text, required: false),
          FieldSpec("usage", .shape("Usage"), versions: .removedIn(.v0_3_0), required: false),
          FieldSpec("cost", .shape("Cost"), versions: .removedIn(.v0_3_0), required: false),
          FieldSpec("ios_session_id", .text, required: false),
        ]),
      MessageSpec(
        "replay", .serverToClient, status: .documentedNotImplemented,
        doc:
          "A buffered message re-sent after reconnect, to be acknowledged with message_ack. Documented, never sent by the real backend.",
        fields: [
          FieldSpec("message_id", .text, doc: "Acknowledge with message_ack."),
          FieldSpec("message", .shape("ReplayedMessage")),
        ]),
      MessageSpec(
        "canvas_update", .serverToClient, versions: .since(.v0_3_0),
        doc: "Components for the supervisor's canvas, sent to the supervisor's channel (the web frontend).",
        fields: [
          FieldSpec("components", .array(.shape("CanvasComponent")))
        ]),
      MessageSpec(
        "tts_speak", .serverToClient, versions: .since(.v0_3_0),
        doc: "Text the supervisor wants spoken, sent to the supervisor's channel.",
        fields: [
          FieldSpec("text", .text),
          FieldSpec(
            "streaming", .boolean, required: false, allowedValues: [true],
            doc: "Only true: one delta of a streamed answer."),
          FieldSpec("priority", .text, required: false, knownValues: ["notification", "error"]),
        ]),
      MessageSpec(
        "supervisor_thinking", .serverToClient, versions: .since(.v0_3_0),
        doc: "Whether the supervisor is working, for a busy indicator.",
        fields: [
          FieldSpec("active", .boolean)
        ]),
      MessageSpec(
        "connect_ack", .serverToClient, versions: .since(.v0_4_0), status: .documentedNotImplemented,
        doc:
          "Accepted by the iOS client since 0.4.0 but never sent by the real server, which puts the negotiated version on connected.",
        fields: [
          FieldSpec("negotiated_protocol_version", .string(.version), required: false)
        ]),
      MessageSpec(
        "heartbeat", .serverToClient, status: .extension, capability: "heartbeat",
        doc: "Extension: server liveness signal, every 45 s; a client that hears nothing for 90 s reconnects.",
        fields: [
          FieldSpec("timestamp", .string(.dateTime), doc: "When the server sent it (UTC).")
        ]),
      MessageSpec(
        "draining", .serverToClient, status: .extension, capability: "draining",
        doc: "Extension: the server is shutting down; reconnect after retry_after_ms.",
        fields: [
          FieldSpec("message", .text, doc: "Human-readable reason."),
          FieldSpec(
            "retry_after_ms", .integer(minimum: 0), doc: "How long to wait before reconnecting, in milliseconds."),
        ]),
      MessageSpec(
        "recipe_step_complete", .serverToClient, status: .nonexistent,
        doc: "Listed in the 2026 review's inventory but never existed in any code. Not part of the protocol.",
        fields: [

        ]),
    ],
    shapes: [
      ShapeSpec(
        "SessionSummary",
        doc: "One session in session_list; last_modified is epoch milliseconds.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec("name", .text),
          FieldSpec("working_directory", .text),
          FieldSpec("last_modified", .int),
          FieldSpec("message_count", .integer(minimum: 0)),
          FieldSpec(
            "provider", .text, versions: .since(.v0_3_0), required: false,
            knownValues: ["claude", "copilot", "cursor", "opencode"], doc: "Absent when the index has no provider."),
        ]),
      ShapeSpec(
        "RecentSession",
        doc: "One session in recent_sessions; last_modified is an ISO-8601 string, with or without fraction.",
        fields: [
          FieldSpec("session_id", .text),
          FieldSpec("name", .text),
          FieldSpec("working_directory", .text),
          FieldSpec("last_modified", .string(.dateTime)),
          FieldSpec(
            "provider", .text, versions: .since(.v0_3_0), knownValues: ["claude", "copilot", "cursor", "opencode"],
            defaultValue: "claude"),
        ]),
      ShapeSpec(
        "CommandNode",
        doc: "A command or a group of commands (recursive through children).",
        fields: [
          FieldSpec("id", .text),
          FieldSpec("label", .text),
          FieldSpec("type", .text, allowedValues: ["command", "group"]),
          FieldSpec("description", .text, required: false),
          FieldSpec("children", .array(.shape("CommandNode")), required: false),
        ]),
      ShapeSpec(
        "ClaudeMessage",
        doc: "The message object inside a raw Claude Code record; content is a string or an array of content blocks.",
        extraMembers: .allow, handWrittenModel: true,
        fields: [
          FieldSpec("role", .text, required: false),
          FieldSpec("content", .oneOf([.text, .array(.any)]), required: false),
        ]),
      ShapeSpec(
        "ClaudeRecord",
        doc:
          "A raw Claude Code JSONL record, passed through losslessly (camelCase keys such as parentUuid are Claude's own).",
        extraMembers: .allow, handWrittenModel: true,
        fields: [
          FieldSpec("type", .text),
          FieldSpec("uuid", .text, required: false),
          FieldSpec("timestamp", .text, required: false),
          FieldSpec("message", .shape("ClaudeMessage"), required: false),
          FieldSpec("parentUuid", .text, required: false, nullable: true),
          FieldSpec("sessionId", .text, required: false),
          FieldSpec("cwd", .text, required: false),
          FieldSpec("isSidechain", .boolean, required: false),
          FieldSpec("toolUseResult", .any, required: false),
        ]),
      ShapeSpec(
        "HistoryMessage",
        doc:
          "A canonical history message (0.3.0 on): one user or assistant turn of any provider. 0.4.0 numbers it with seq (gaps are normal); 0.5.0 with offset, the raw line index in the provider's file (gaps are normal).",
        fields: [
          FieldSpec("uuid", .text),
          FieldSpec("role", .text, allowedValues: ["user", "assistant"]),
          FieldSpec("text", .text),
          FieldSpec("timestamp", .text, nullable: true, doc: "ISO-8601, or null when the source record has none."),
          FieldSpec("provider", .text, knownValues: ["claude", "copilot", "opencode"]),
          FieldSpec("session_id", .text, versions: .since(.v0_4_0)),
          FieldSpec("seq", .integer(minimum: 1), versions: .only(.v0_4_0), doc: "1-based, monotonic per session."),
          FieldSpec(
            "offset", .integer(minimum: 0), versions: .since(.v0_5_0),
            doc: "The line's index in the provider's file; not contiguous."),
        ]),
      ShapeSpec(
        "HistoryGap",
        doc: "Why a 0.4.0 reply does not continue from the client's last_seq.",
        fields: [
          FieldSpec("requested_last_seq", .integer(minimum: 0)),
          FieldSpec("min_available_seq", .integer(minimum: 1)),
          FieldSpec("reason", .text, allowedValues: ["pruned", "client_ahead"]),
        ]),
      ShapeSpec(
        "CanvasComponent",
        doc: "One component of the supervisor's canvas.",
        fields: [
          FieldSpec(
            "type", .text,
            knownValues: [
              "status_card", "session_list", "confirmation", "progress", "text_block", "action_buttons",
              "command_output", "error",
            ]),
          FieldSpec("props", .object, required: false),
        ]),
      ShapeSpec(
        "WorktreeErrorDetails",
        doc: "What failed while creating a worktree.",
        fields: [
          FieldSpec("step", .text, required: false, knownValues: ["git_worktree_add", "bd_init_local"]),
          FieldSpec("stderr", .text, required: false),
          FieldSpec("branch_name", .text, required: false),
          FieldSpec("suggestion", .text, required: false),
        ]),
      ShapeSpec(
        "CommandHistoryEntry",
        doc: "One past command run.",
        fields: [
          FieldSpec("command_session_id", .text),
          FieldSpec("command_id", .text),
          FieldSpec("shell_command", .text),
          FieldSpec("working_directory", .text),
          FieldSpec("timestamp", .string(.dateTime)),
          FieldSpec("exit_code", .int, required: false),
          FieldSpec("duration_ms", .int, required: false),
          FieldSpec("end_time", .string(.dateTime), required: false),
          FieldSpec("output_preview", .text, nullable: true),
        ]),
      ShapeSpec(
        "Resource",
        doc: "One uploaded file.",
        fields: [
          FieldSpec("filename", .text),
          FieldSpec("path", .text),
          FieldSpec("size", .integer(minimum: 0)),
          FieldSpec("timestamp", .string(.dateTime)),
        ]),
      ShapeSpec(
        "Recipe",
        doc: "A recipe the backend offers; id is kebab-case.",
        fields: [
          FieldSpec("id", .text),
          FieldSpec("label", .text),
          FieldSpec("description", .text),
        ]),
      ShapeSpec(
        "Usage",
        doc: "Token counts of a response.",
        fields: [
          FieldSpec("input_tokens", .int),
          FieldSpec("output_tokens", .int),
          FieldSpec("cache_read_input_tokens", .int, required: false),
          FieldSpec("cache_creation_input_tokens", .int, required: false),
        ]),
      ShapeSpec(
        "Cost",
        doc: "Cost of a response in US dollars.",
        fields: [
          FieldSpec("input_cost", .number),
          FieldSpec("output_cost", .number),
          FieldSpec("total_cost", .number),
        ]),
      ShapeSpec(
        "ReplayedMessage",
        doc: "The buffered message inside replay.",
        fields: [
          FieldSpec("role", .text, versions: .only(.v0_2_0), allowedValues: ["user", "assistant"]),
          FieldSpec(
            "role", .text, versions: .since(.v0_3_0), knownValues: ["user", "assistant"],
            doc: "The 0.3.0 documentation no longer closes the set."),
          FieldSpec("text", .text),
          FieldSpec("session_id", .text, required: false),
          FieldSpec("timestamp", .string(.dateTime), required: false),
        ]),
    ])
}

extension ProtocolCatalog {
  /// The recipe step names the real server sends (snake case), one open set for every step member.
  static let recipeSteps = [
    "code_review", "document", "analyze", "implement", "rebase", "commit", "complete", "create_epic",
    "create_tasks", "fix_tasks", "fix", "review_tasks", "review",
  ]
}
