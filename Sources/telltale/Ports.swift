import ArgumentParser
import CSerialPort

/// `telltale ports`: the serial ports libserialport sees, with what identifies each one.
struct Ports: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List serial ports with their description, USB VID:PID, serial number and stable by-id name."
    )

    func run() throws {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        guard sp_list_ports(&list) == SP_OK, let list else {
            Console.error("telltale: libserialport could not list the ports\n")
            throw ExitCode.failure
        }
        defer { sp_free_port_list(list) }
        var index = 0
        var lines = 0
        while let port = list[index] {
            index += 1
            let name = sp_get_port_name(port).map { String(cString: $0) } ?? "?"
            var line = name
            if let description = sp_get_port_description(port) { line += "  " + String(cString: description) }
            if sp_get_port_transport(port) == SP_TRANSPORT_USB {
                var vendor: Int32 = 0
                var product: Int32 = 0
                if sp_get_port_usb_vid_pid(port, &vendor, &product) == SP_OK {
                    line += "  " + hex4(vendor) + ":" + hex4(product)
                }
                if let serial = sp_get_port_usb_serial(port) { line += "  serial " + String(cString: serial) }
            }
            Console.out(line + "\n")
            lines += 1
        }
        if lines == 0 { Console.out("no serial ports found\n") }
    }

    private func hex4(_ value: Int32) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
