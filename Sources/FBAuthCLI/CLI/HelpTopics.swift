/// The guides `fbauth help TOPIC` prints (tokens, app-check, headless, security, sessions): the
/// text of docs/, generated into HelpTopics+Docs.swift by Scripts/gen-help-topics.py, so that an
/// installed binary carries them and --help texts point to them rather than to repository paths.
enum HelpTopics {
    static func guide(_ name: String) -> String? { guides.first { $0.name == name }?.text }
    static var names: [String] { guides.map(\.name) }
}
