/// The release, as `telltale --version` prints it and the Debian package is named.
public enum TelltaleVersion {
    public static let string = "0.9.0"
}
