import Foundation
import StreamLensGStreamer
import StreamLensOptions

/// Installs an element's properties on its class from the option schema (`OptionSchema`): names, blurbs, ranges and
/// defaults are the ones the command line and the pipeline file use, so gst-inspect-1.0 and the reference page agree.
/// Called from each element's `class_init` (Sources/CStreamLensGstPlugin); `klass` is borrowed.
@_cdecl("streamlens_install_properties")
public func streamlensInstallProperties(_ klass: UnsafeMutableRawPointer, _ element: UnsafePointer<CChar>) {
    ElementClass(borrowing: klass).install(ElementProperties.specs(of: String(cString: element)))
}

enum ElementProperties {
    /// The property specifications of `element`, in the schema's order.
    static func specs(of element: String) -> [ElementClass.PropertySpec] {
        OptionSchema.properties(of: element).map { option, property in
            ElementClass.PropertySpec(
                name: property.name, nick: nick(property.name), blurb: blurb(option), kind: kind(option, property))
        }
    }

    /// `sync-analysis` → `Sync analysis`.
    static func nick(_ name: String) -> String {
        let words = name.replacingOccurrences(of: "-", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// The help, with the values in words where the type does not show them (choices, forms).
    static func blurb(_ option: OptionSpec) -> String {
        switch option.kind {
        case .choice, .text: "\(option.help) Values: \(option.expected)."
        default: option.help
        }
    }

    static func kind(_ option: OptionSpec, _ property: OptionSpec.Property) -> ElementClass.PropertySpec.Kind {
        let value = option.defaultValue(of: property)
        switch option.kind {
        case .int(let range):
            guard case .int(let number)? = value else { preconditionFailure("\(property.name): an int property needs a default") }
            return .int(range, default: number)
        case .number(let range):
            guard case .number(let number)? = value else { preconditionFailure("\(property.name): a number property needs a default") }
            return .double(range, default: number)
        case .bool, .flag:
            guard case .bool(let flag)? = value else { preconditionFailure("\(property.name): a boolean property needs a default") }
            return .bool(default: flag)
        case .choice, .text, .path, .section:
            if case .text(let text)? = value { return .string(default: text) }
            return .string(default: nil)
        }
    }
}
