import CSerialPort

/// `telltale ports`: the serial ports libserialport sees, with what identifies each one.
public enum SerialPorts {
    /// One line a port: name, description, USB VID:PID and serial number; nil when libserialport cannot list.
    public static func list() -> [String]? {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        guard sp_list_ports(&list) == SP_OK, let list else { return nil }
        defer { sp_free_port_list(list) }
        var lines: [String] = []
        var index = 0
        while let port = list[index] {
            index += 1
            var line = sp_get_port_name(port).map { String(cString: $0) } ?? "?"
            if let description = sp_get_port_description(port) { line += "  " + String(cString: description) }
            if sp_get_port_transport(port) == SP_TRANSPORT_USB {
                var vendor: Int32 = 0
                var product: Int32 = 0
                if sp_get_port_usb_vid_pid(port, &vendor, &product) == SP_OK {
                    line += "  " + hex4(vendor) + ":" + hex4(product)
                }
                if let serial = sp_get_port_usb_serial(port) { line += "  serial " + String(cString: serial) }
            }
            lines.append(line)
        }
        return lines
    }

    private static func hex4(_ value: Int32) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<4).reversed().map { digits[Int((value >> (4 * Int32($0))) & 0xF)] })
    }
}

/// `telltale ports`, without its command-line library.
public enum PortsCommand {
    /// One line a port, or a line saying there is none.
    public static func run() throws(CommandError) -> String {
        guard let lines = SerialPorts.list() else { throw CommandError("libserialport could not list the ports") }
        return lines.isEmpty ? "no serial ports found\n" : lines.joined(separator: "\n") + "\n"
    }
}
