import Platform
import SignalK

/// GRIB files a phone sends, written into the weather folder's uploads a piece at a time (`.NAME.part` until it is
/// whole, then `NAME`, which the weather service imports). Pieces come in order; a piece out of order is refused with
/// the offset to resend from.
struct GRIBUploads {
    /// The uploads folder, or nil when there is no weather folder.
    let folder: String?
    let log: Log

    /// Writes one piece; the HTTP status and its words.
    func receive(_ piece: SignalKServer.UploadPiece) -> (status: Int, message: String) {
        guard let folder else { return (503, "no weather folder: set state_file or [weather] folder") }
        let partial = folder + "/." + piece.name + ".part"
        let have = piece.offset == 0 ? 0 : (POSIX.stamp(partial)?.size ?? 0)
        guard have == piece.offset else { return (409, "resend from \(have)") }
        do throws(POSIX.Failure) {
            let length = try POSIX.append(partial, piece.bytes, truncating: piece.offset == 0)
            guard length >= piece.total else { return (202, "\(length) of \(piece.total) bytes") }
            guard length == piece.total else {
                _ = POSIX.remove(partial)
                return (400, "longer than said: \(length) bytes, not \(piece.total)")
            }
            try POSIX.rename(partial, to: folder + "/" + piece.name)
            log.notice(
                "weather.upload", "weather: \(piece.name) received from a phone (\(length) bytes)",
                [("path", folder + "/" + piece.name)])
            return (201, "\(piece.name) received: importing it")
        } catch {
            return (507, "\(error)")
        }
    }
}
