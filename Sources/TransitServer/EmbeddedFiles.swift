/// The pages' files (Sources/TransitServer/Pages, Leaflet included), compiled into the binary:
/// the server needs nothing beside itself and fetches nothing from elsewhere.
enum EmbeddedFiles {
    /// The bytes of the file at `path` (relative to Pages/, like `leaflet/leaflet.js`).
    static func file(named path: String) -> [UInt8]? {
        files[path]
    }

    /// Every file by its path under Pages/. SwiftPM embeds each file as `PackageResources.NAME`
    /// (its base name, dots and dashes as underscores), so the paths are listed here; a test
    /// checks that every file of Pages/ is served.
    private static let files: [String: [UInt8]] = [
        "index.html": PackageResources.index_html,
        "board.html": PackageResources.board_html,
        "trip.html": PackageResources.trip_html,
        "app.css": PackageResources.app_css,
        "common.js": PackageResources.common_js,
        "map.js": PackageResources.map_js,
        "board.js": PackageResources.board_js,
        "trip.js": PackageResources.trip_js,
        "favicon.svg": PackageResources.favicon_svg,
        "leaflet/leaflet.js": PackageResources.leaflet_js,
        "leaflet/leaflet.css": PackageResources.leaflet_css,
        "leaflet/images/layers.png": PackageResources.layers_png,
        "leaflet/images/layers-2x.png": PackageResources.layers_2x_png,
        "leaflet/images/marker-icon.png": PackageResources.marker_icon_png,
        "leaflet/images/marker-icon-2x.png": PackageResources.marker_icon_2x_png,
        "leaflet/images/marker-shadow.png": PackageResources.marker_shadow_png,
    ]

    /// Changes with the binary's files: the pages' entity tag.
    static let versionTag: String = {
        var hash = FNVHash()
        for path in files.keys.sorted() {
            hash.add(path)
            hash.add(String(decoding: files[path]!, as: UTF8.self))
        }
        return hash.hex
    }()

    /// The Content-Type of a file, by its extension.
    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last ?? "" {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "json": return "application/json; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
