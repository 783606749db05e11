import Mustache

/// The server's HTML pages, as Mustache templates compiled into the binary (no files to ship).
/// Every page the server renders is here: the share pages, each filling the `layout` partial's
/// frame, the web sign-in page's (``signInTemplates``), and the console's (``consoleTemplates``),
/// filling `console-top` and `console-bottom`.
/// Values are HTML-escaped (`{{value}}`).
enum PageTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        do {
            for (name, text) in templates.merging(consoleTemplates, uniquingKeysWith: { first, _ in first })
                .merging(signInTemplates, uniquingKeysWith: { first, _ in first }) {
                try library.register(text, named: name)
            }
        } catch {
            preconditionFailure("a page template does not parse: \(error)")
        }
        return library
    }()

    /// Renders a page; `context` holds its values.
    static func render(_ name: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    private static let templates = [
        // The start of every page, the console's too.
        "page-head": """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            """,
        "layout-top": """
            {{> page-head}}
            <title>{{pageTitle}}</title>
            <style>
            body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 2rem 1rem; color: #1d1d1f; background: #f5f5f7; }
            main { max-width: 32rem; margin: 0 auto; background: #fff; border-radius: 12px; padding: 1.5rem; }
            h1 { font-size: 1.5rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
            a.button { display: inline-block; margin-top: 1rem; padding: .6rem 1.2rem; border-radius: 8px; background: #0071e3; color: #fff; text-decoration: none; }
            a.button:focus { outline: 3px solid #1d1d1f; outline-offset: 2px; }
            </style>
            </head>
            <body>
            <main>
            """,
        "layout-bottom": """
            </main>
            </body>
            </html>
            """,
        "share": """
            {{> layout-top}}
            <h1>{{title}}</h1>
            <p>Shared by {{owner}}.</p>
            {{#appURL}}<a class="button" href="{{appURL}}">Open in the app</a>{{/appURL}}
            {{^appURL}}<p>Open this link on a device with the app to join.</p>{{/appURL}}
            {{> layout-bottom}}
            """,
        "share-missing": """
            {{> layout-top}}
            <h1>This share is not available</h1>
            <p>The link is wrong, or its owner stopped sharing.</p>
            {{> layout-bottom}}
            """,
    ]
}
