import FuzzDriver
import VCProto

/// Authenticated frames (STANDARDS.md#authenticated-frames) on arbitrary input. The input is a sequence of
/// received messages separated by 0xFF (a byte UTF-8 never contains), at most 16. Each goes in order
/// to a server channel and, separately, to a client channel, both keyed as in Vectors/auth/frames.json
/// (the handshake `v2.authenticated_frames`), so the seeds made from that file start from genuine frames.
///
/// Invariants: no crash; a channel accepts only the genuine frame the other end sealed with the right
/// key and the next sequence number (the k-th frame it accepts opens to exactly the k-th genuine inner
/// frame, and there is none past the genuine ones); after any refusal it accepts nothing more; and any
/// UTF-8 input sealed by a genuine sender opens back to itself.
let keys = FrameKeys.derive(
  apiKey: "untethered-00112233445566778899aabbccddeeff", challenge: String(repeating: "9f", count: 32),
  clientNonce: "0123456789abcdef0123456789abcdef",
  authResponse: "08671e47bb64380f9ce532e8fa1eb50ff61fc164076805a9ee340f258cb30b28",
  connected: ConnectedMessage(
    message: "Session registered", sessionId: "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11",
    negotiatedProtocolVersion: "0.2.0",
    capabilities: ["authenticated_frames", "heartbeat"], authVersion: 2,
    serverProof: "5fff422691d2db4a54b139744a5c14429661b6c0fb5625ed4dbe9e08f11ab17c"))

/// The genuine inner frames each direction sent, in order (frames.json `frames.in_order` and
/// `frames.server_to_client`).
let clientSent: [[UInt8]] = [
  #"{"type":"ping"}"#, #"{"type":"execute_command","command_id":"build","working_directory":"/tmp"}"#,
  #"{"type":"prompt","text":"say \"hi\"\n","session_id":"4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"}"#,
].map { Array($0.utf8) }
let serverSent: [[UInt8]] = [
  #"{"type":"session_list","sessions":[]}"#,
  "{\"type\":\"prompt\",\"text\":\"café 日本 \u{07}\",\"session_id\":\"4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11\"}",
].map { Array($0.utf8) }

func receive(_ messages: [[UInt8]], role: AuthenticatedChannel.Role, genuine: [[UInt8]]) {
  var channel = AuthenticatedChannel(keys: keys, role: role)
  var accepted = 0
  var refused = false
  for message in messages {
    do throws(AuthenticatedFrameError) {
      let inner = try channel.open(message)
      precondition(!refused, "accepted a frame after a refusal")
      precondition(accepted < genuine.count && inner == genuine[accepted], "accepted a frame nobody sealed")
      accepted += 1
    } catch {
      precondition(!refused || error == .channelClosed, "a closed channel gave \(error)")
      refused = true
      precondition(channel.isClosed, "a refusal left the channel open")
    }
  }
  precondition(channel.nextReceiveSequence == UInt64(accepted), "sequence counter out of step")
}

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let messages = bytes.split(separator: 0xFF, maxSplits: 15, omittingEmptySubsequences: false).map(Array.init)
  receive(messages, role: .server, genuine: clientSent)
  receive(messages, role: .client, genuine: serverSent)
  // Any UTF-8 text survives sealing and opening unchanged.
  var sender = AuthenticatedChannel(keys: keys, role: .client)
  var receiver = AuthenticatedChannel(keys: keys, role: .server)
  if let sealed = try? sender.seal(bytes) {
    do throws(AuthenticatedFrameError) {
      let opened = try receiver.open(sealed)
      precondition(opened == bytes, "a sealed frame opened to other bytes")
    } catch {
      preconditionFailure("a genuine sealed frame was refused: \(error)")
    }
  }
  return 0
}

runFuzzer(fuzzOne)
