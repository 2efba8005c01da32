import Platform

extension WebServer {
    /// A client's bytes through TLS rather than the bare socket (the shore's HTTPS, whose OpenSSL the shore opens):
    /// a session made for each accepted socket, then its reads and writes, and its end.
    package struct Cipher {
        package var accept: (Int32) -> OpaquePointer?
        package var receive: (OpaquePointer, UnsafeMutableRawBufferPointer) -> POSIX.Transfer
        package var send: (OpaquePointer, UnsafeRawBufferPointer) -> POSIX.Transfer
        package var close: (OpaquePointer) -> Void

        package init(
            accept: @escaping (Int32) -> OpaquePointer?,
            receive: @escaping (OpaquePointer, UnsafeMutableRawBufferPointer) -> POSIX.Transfer,
            send: @escaping (OpaquePointer, UnsafeRawBufferPointer) -> POSIX.Transfer,
            close: @escaping (OpaquePointer) -> Void
        ) {
            self.accept = accept
            self.receive = receive
            self.send = send
            self.close = close
        }
    }
}
