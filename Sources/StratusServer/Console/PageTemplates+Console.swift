extension PageTemplates {
    /// The console's pages (see ``ConsoleRoutes``): plain forms and links, usable with the
    /// keyboard alone (a skip link, visible focus, labels on every control) and on a narrow
    /// screen (tables scroll sideways, forms wrap).
    static let consoleTemplates = [
        "console-top": """
            {{> page-head}}
            <title>{{pageTitle}} · Stratus console</title>
            <style>
            body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f5f5f7; }
            header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .75rem 1rem; background: #1d1d1f; color: #fff; }
            header a { color: #fff; }
            header form { margin-left: auto; }
            main { max-width: 64rem; margin: 1rem auto; padding: 0 1rem; }
            section, .card { background: #fff; border-radius: 10px; padding: 1rem; margin-bottom: 1rem; }
            h1 { font-size: 1.4rem; margin: 0 0 .75rem; overflow-wrap: anywhere; }
            h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
            .scroll { overflow-x: auto; }
            .scroll table { min-width: 34rem; }
            table { border-collapse: collapse; width: 100%; }
            th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e5e5ea; vertical-align: top; overflow-wrap: anywhere; }
            form.inline, .row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
            label { display: flex; flex-direction: column; font-size: .85rem; gap: .15rem; }
            input, select, button { font: inherit; padding: .35rem .5rem; border: 1px solid #c7c7cc; border-radius: 6px; }
            button { background: #0071e3; color: #fff; border-color: #0071e3; cursor: pointer; }
            button.danger { background: #d70015; border-color: #d70015; }
            a:focus, input:focus, select:focus, button:focus { outline: 3px solid #ff9f0a; outline-offset: 1px; }
            .skip { position: absolute; left: -999px; }
            .skip:focus { left: 1rem; top: 1rem; background: #fff; color: #000; padding: .5rem; z-index: 1; }
            .message { background: #e8f2ff; border-radius: 8px; padding: .5rem .75rem; }
            .error { background: #ffe5e7; border-radius: 8px; padding: .5rem .75rem; }
            code { overflow-wrap: anywhere; }
            pre { overflow-x: auto; background: #f5f5f7; padding: .5rem; border-radius: 6px; }
            textarea { font: 13px/1.4 ui-monospace, monospace; width: 100%; box-sizing: border-box; }
            tr.new { background: #fff8e1; }
            </style>
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            <header>
            <strong>Stratus console</strong>
            {{#administrator}}<nav><a href="/console/containers">Containers</a> · <a href="/console/activity" id="activity-link">Activity</a></nav>
            <form method="post" action="/console/signout"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Sign out {{administrator}}</button></form>{{/administrator}}
            </header>
            <main id="main">
            {{#message}}<p class="message" role="status">{{message}}</p>{{/message}}
            {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
            """,
        "console-bottom": """
            </main>
            </body>
            </html>
            """,
        "console-place": """
            <input type="hidden" name="environment" value="{{environment}}"><input type="hidden" name="database" value="{{#private}}private{{/private}}{{^private}}public{{/private}}"><input type="hidden" name="user" value="{{user}}"><input type="hidden" name="zone" value="{{zone}}"><input type="hidden" name="csrf" value="{{csrf}}">
            """,
        "console-signin": """
            {{> console-top}}
            <section>
            <h1>Sign in</h1>
            <form method="post" action="/console/signin" class="inline">
            <label>Administrator <input name="username" id="username" autocomplete="username" value="{{username}}" required autofocus></label>
            <label>Password <input name="password" id="password" type="password" autocomplete="current-password" required></label>
            <button type="submit" id="signin">Sign in</button>
            </form>
            <p>Administrators are made on the server: <code>stratus admin create NAME --password-file FILE</code>.</p>
            </section>
            {{> console-bottom}}
            """,
        "console-message": """
            {{> console-top}}
            <section><h1>{{pageTitle}}</h1><p>{{text}}</p><p><a href="/console/containers">Containers</a></p></section>
            {{> console-bottom}}
            """,
        "console-containers": """
            {{> console-top}}
            <section>
            <h1>Containers</h1>
            <div class="scroll"><table>
            <thead><tr><th scope="col">Container</th><th scope="col">Created</th></tr></thead>
            <tbody>{{#containers}}<tr><td><a href="/console/containers/{{id}}">{{id}}</a></td><td>{{created}}</td></tr>{{/containers}}</tbody>
            </table></div>
            </section>
            <section>
            <h2>New container</h2>
            <form method="post" action="/console/containers" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>Identifier <input name="id" id="new-container" placeholder="iCloud.com.example.app" required></label>
            <button type="submit" id="create-container">Create</button>
            </form>
            </section>
            {{> console-bottom}}
            """,
        "console-container": """
            {{> console-top}}
            <section>
            <h1>{{container}}</h1>
            <p>Created {{created}}.</p>
            <p>API token (<code>ckAPIToken</code>, built into apps): <code id="api-token">{{apiToken}}</code></p>
            <form method="post" action="/console/containers/{{containerPath}}/settings/rotate-token" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <button type="submit" class="danger" id="rotate-token">Rotate the API token</button>
            </form>
            </section>
            <section>
            <h2>Web apps</h2>
            <p>Web apps of these origins may sign their users in through the sign-in page.</p>
            <ul id="web-origins">{{#webOrigins}}<li><code>{{origin}}</code> <form method="post" action="/console/containers/{{containerPath}}/settings/remove-web-origin" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="origin" value="{{origin}}"><button type="submit" class="danger">Remove</button></form></li>{{/webOrigins}}</ul>
            <form method="post" action="/console/containers/{{containerPath}}/settings/add-web-origin">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>Add a web app's origin (https://app.example.com) <input name="origin" required maxlength="255"></label>
            <p><button type="submit">Add origin</button></p>
            </form>
            </section>
            <section>
            <h2>Record history</h2>
            <p id="history-days">{{#historyDays}}Versions and deletions are kept {{historyDays}} days.{{/historyDays}}{{^historyDays}}Versions and deletions are kept as the server's <code>--history-days</code> says ({{serverHistoryDays}} days).{{/historyDays}}</p>
            <form method="post" action="/console/containers/{{containerPath}}/settings/set-history-days">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>Days to keep (0: none; empty: the server's) <input name="days" id="history-days-input" inputmode="numeric" pattern="[0-9]*" maxlength="4" value="{{historyDaysValue}}"></label>
            <p><button type="submit" id="set-history-days">Save</button></p>
            </form>
            </section>
            <section>
            <h2>Server-to-server keys</h2>
            <div class="scroll"><table>
            <thead><tr><th scope="col">Key ID</th><th scope="col">Created</th><th scope="col">Revoked</th><th scope="col"></th></tr></thead>
            <tbody>{{#keys}}<tr><td><code>{{keyID}}</code></td><td>{{created}}</td><td>{{revoked}}</td>
            <td>{{^revoked}}<form method="post" action="/console/containers/{{containerPath}}/settings/revoke-key"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="keyID" value="{{keyID}}"><button type="submit" class="danger">Revoke</button></form>{{/revoked}}</td></tr>{{/keys}}</tbody>
            </table></div>
            <form method="post" action="/console/containers/{{containerPath}}/settings/add-key">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>Add a key: its PEM public key (P-256) <textarea name="publicKey" rows="4" required></textarea></label>
            <p><button type="submit">Add key</button></p>
            </form>
            </section>
            <section>
            <h2>Push through APNs</h2>
            {{#apns}}<p id="apns">Key {{keyID}}, team {{teamID}}, topic {{topic}}.</p>
            <form method="post" action="/console/containers/{{containerPath}}/settings/remove-apns" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="danger">Remove the APNs credentials</button></form>{{/apns}}
            {{^apns}}<p>No APNs credentials: subscriptions notify over WebSockets and couriers only.</p>{{/apns}}
            <form method="post" action="/console/containers/{{containerPath}}/settings/set-apns">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <div class="row"><label>Key ID <input name="keyID" required></label><label>Team ID <input name="teamID" required></label><label>Topic (bundle ID) <input name="topic" required></label></div>
            <label>The .p8 key's PEM <textarea name="privateKey" rows="4" required></textarea></label>
            <p><button type="submit">Set APNs credentials</button></p>
            </form>
            </section>
            <section>
            <h2>Browse</h2>
            <ul>
            <li><a href="/console/containers/{{containerPath}}/data?environment=development&amp;database=public" id="data-link">Data (development, public database)</a></li>
            <li><a href="/console/containers/{{containerPath}}/query?environment=development&amp;database=public" id="query-link">Query</a></li>
            <li><a href="/console/containers/{{containerPath}}/users" id="users-link">Users</a></li>
            <li><a href="/console/containers/{{containerPath}}/schema" id="schema-link">Schema</a></li>
            <li><a href="/console/containers/{{containerPath}}/webhooks" id="webhooks-link">Webhooks</a></li>
            </ul>
            </section>
            {{> console-bottom}}
            """,
        "console-webhooks": """
            {{> console-top}}
            <section>
            <h1>Webhooks of {{container}}</h1>
            <p>Each endpoint hears the container's committed changes, signed, at least once and in commit order (<a href="https://www.standardwebhooks.com">Standard Webhooks</a>).</p>
            <div class="scroll"><table id="webhooks">
            <thead><tr><th scope="col">Endpoint</th><th scope="col">URL</th><th scope="col">Hears</th><th scope="col">State</th><th scope="col">Delivered through</th><th scope="col"></th></tr></thead>
            <tbody>{{#endpoints}}<tr><td><a href="/console/containers/{{containerPath}}/webhook-deliveries/{{id}}"><code>{{id}}</code></a></td><td><code>{{url}}</code> ({{environment}})</td><td>{{filter}}</td>
            <td>{{state}}{{#failures}}<br>{{failures}}{{/failures}}</td><td>{{through}}</td>
            <td><form method="post" action="/console/containers/{{containerPath}}/webhooks/{{#enabled}}disable{{/enabled}}{{^enabled}}enable{{/enabled}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="endpoint" value="{{id}}"><button type="submit">{{#enabled}}Disable{{/enabled}}{{^enabled}}Enable{{/enabled}}</button></form>
            <form method="post" action="/console/containers/{{containerPath}}/webhooks/rotate-secret" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="endpoint" value="{{id}}"><button type="submit">New secret</button></form>
            <form method="post" action="/console/containers/{{containerPath}}/webhooks/replay" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="endpoint" value="{{id}}"><label>Replay since <input name="since" placeholder="2026-12-01T09:00:00Z" required maxlength="40"></label><button type="submit">Replay</button></form>
            <form method="post" action="/console/containers/{{containerPath}}/webhooks/remove" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="endpoint" value="{{id}}"><button type="submit" class="danger">Remove</button></form></td></tr>{{/endpoints}}</tbody>
            </table></div>
            </section>
            <section>
            <h2>Add an endpoint</h2>
            <form method="post" action="/console/containers/{{containerPath}}/webhooks/add">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>URL (https://) <input name="url" id="webhook-url" required maxlength="2048"></label>
            <div class="row"><label>Environment <select name="environment"><option>development</option><option>production</option></select></label>
            <label>Database <select name="database"><option value="">every database</option><option>public</option><option>private</option><option>shared</option></select></label></div>
            <div class="row"><label>Record types (comma-separated; empty: all) <input name="recordTypes" maxlength="2048"></label>
            <label>Zones (comma-separated; empty: all) <input name="zones" maxlength="2048"></label></div>
            <p><button type="submit" id="add-webhook">Add endpoint</button></p>
            </form>
            </section>
            {{> console-bottom}}
            """,
        "console-webhook-attempts": """
            {{> console-top}}
            <section>
            <h1>Deliveries to {{endpoint}}</h1>
            <p>The last 100 attempts of the last 7 days, newest first. <a href="/console/containers/{{containerPath}}/webhooks">All endpoints</a></p>
            <div class="scroll"><table id="attempts">
            <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Latency</th><th scope="col">Answer</th></tr></thead>
            <tbody>{{#attempts}}<tr><td>{{when}}</td><td><code>{{event}}</code></td><td>{{status}}</td><td>{{latency}}</td><td>{{answer}}</td></tr>{{/attempts}}</tbody>
            </table></div>
            </section>
            {{> console-bottom}}
            """,
        "console-users": """
            {{> console-top}}
            <section>
            <h1>Users of {{container}}</h1>
            <form method="get" action="/console/containers/{{containerPath}}/users" class="inline" role="search">
            <label>Search <input name="search" value="{{search}}" id="user-search"></label>
            <button type="submit">Search</button>
            </form>
            </section>
            <section>
            <div class="scroll"><table>
            <thead><tr><th scope="col">Username</th><th scope="col">Email</th><th scope="col">Created</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
            <tbody>
            {{#users}}<tr>
            <td><a href="/console/containers/{{containerPath}}/users/{{path}}">{{username}}</a><br><small>{{recordName}}</small></td><td>{{email}}</td><td>{{created}}</td>
            <td>{{#disabled}}disabled{{/disabled}}{{^disabled}}active{{/disabled}}</td>
            <td>
            <form method="post" action="/console/containers/{{containerPath}}/users/{{path}}/{{#disabled}}enable{{/disabled}}{{^disabled}}disable{{/disabled}}" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">{{#disabled}}Enable{{/disabled}}{{^disabled}}Disable{{/disabled}}</button></form>
            <form method="post" action="/console/containers/{{containerPath}}/users/{{path}}/reset-password" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}"><label>New password <input name="password" type="password" autocomplete="new-password" minlength="8" required></label><button type="submit">Reset</button></form>
            <form method="post" action="/console/containers/{{containerPath}}/users/{{path}}/delete" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}"><label>Type the username to delete <input name="confirm" id="confirm-{{username}}"></label><button type="submit" class="danger" id="delete-{{username}}">Delete</button></form>
            </td>
            </tr>{{/users}}
            </tbody>
            </table></div>
            </section>
            {{> console-bottom}}
            """,
        "console-user": """
            {{> console-top}}
            <section>
            <h1>{{username}}</h1>
            <p><small>{{recordName}}</small>{{#email}} · {{email}}{{/email}} · {{#disabled}}disabled{{/disabled}}{{^disabled}}active{{/disabled}}</p>
            <p id="sign-in-methods">Signs in with: {{#signInMethods}}<span class="method">{{.}}</span> {{/signInMethods}}{{^signInMethods}}no method (an archive loaded without secrets){{/signInMethods}}</p>
            <form method="get" action="/console/containers/{{containerPath}}/users/{{userPath}}" class="inline">
            <label>Environment <select name="environment"><option value="development">development</option><option value="production"{{#production}} selected{{/production}}>production</option></select></label>
            <button type="submit">Show</button>
            </form>
            <p><a href="/console/containers/{{containerPath}}/users">All users</a></p>
            </section>
            <section>
            <h2>Zones of their private database ({{environment}})</h2>
            <ul id="user-zones">{{#zones}}<li><a href="{{link}}">{{name}}</a>
            {{#shares}}<br>Shared ({{record}}; public: {{publicPermission}}) with: {{#participants}}{{name}} ({{permission}}, {{status}}) {{/participants}}{{/shares}}
            </li>{{/zones}}</ul>
            </section>
            <section>
            <h2>Shared with them</h2>
            <ul id="shared-with">{{#sharedWithThem}}<li>{{zone}}, owned by {{owner}}</li>{{/sharedWithThem}}</ul>
            </section>
            <section>
            <h2>Subscriptions and push</h2>
            <ul id="subscriptions">{{#subscriptions}}<li>{{id}} ({{type}}{{#zone}}, zone {{zone}}{{/zone}})</li>{{/subscriptions}}</ul>
            <p>Push connections open now: <span id="push-connections">{{pushConnections}}</span></p>
            <ul id="devices">{{#devices}}<li>APNs device {{token}} ({{apnsEnvironment}}), registered {{registered}}</li>{{/devices}}</ul>
            </section>
            {{> console-bottom}}
            """,
        "console-data": """
            {{> console-top}}
            <section>
            <h1>Data of {{container}}</h1>
            <form method="get" action="/console/containers/{{containerPath}}/data" class="inline">
            <label>Environment <select name="environment"><option value="development">development</option><option value="production"{{#production}} selected{{/production}}>production</option></select></label>
            <label>Database <select name="database"><option value="public">public</option><option value="private"{{#private}} selected{{/private}}>a user's private</option><option value="shared"{{#shared}} selected{{/shared}}>a user's shared</option></select></label>
            <label>User (private, shared) <input name="user" value="{{user}}"></label>
            <label>Zone <input name="zone" value="{{zone}}"></label>
            <button type="submit">Show</button>
            </form>
            {{#needsUser}}<p>Name the user whose database to show.</p>{{/needsUser}}
            {{#shared}}<p>A shared database shows the zones other users share with this one; each opens in its owner's database.</p>{{/shared}}
            </section>
            {{#hasZones}}<section><h2>Zones</h2><ul>{{#zones}}<li><a href="{{link}}">{{name}}</a>{{#current}} (shown){{/current}}</li>{{/zones}}</ul></section>{{/hasZones}}
            {{^needsUser}}{{^shared}}
            <section>
            <h2>Records in {{zone}}</h2>
            <div class="scroll"><table>
            <thead><tr><th scope="col">Record</th><th scope="col">Type</th><th scope="col">Modified</th><th scope="col">Change tag</th></tr></thead>
            <tbody>{{#records}}<tr><td><a href="{{link}}">{{name}}</a></td><td>{{type}}</td><td>{{modified}}</td><td>{{changeTag}}</td></tr>{{/records}}</tbody>
            </table></div>
            {{#next}}<p><a href="{{next}}" id="next-page">Next page</a></p>{{/next}}
            <p><a href="{{recovery}}" id="recovery-link">Recycle bin and zone restore</a></p>
            </section>
            <section>
            <h2>New record</h2>
            <form method="post" action="/console/containers/{{containerPath}}/record" class="inline">
            {{> console-place}}<input type="hidden" name="op" value="create">
            <label>Type <input name="recordType" required></label>
            <label>Name (optional) <input name="name"></label>
            <label>Field <input name="newField"></label>
            <label>Field type <select name="newType"><option>STRING</option><option>INT64</option><option>DOUBLE</option><option>TIMESTAMP</option><option>REFERENCE</option></select></label>
            <label>Value <input name="newValue"></label>
            <button type="submit">Create</button>
            </form>
            </section>
            {{/shared}}{{/needsUser}}
            {{> console-bottom}}
            """,
        "console-record": """
            {{> console-top}}
            <section>
            <h1>{{name}}</h1>
            {{#conflict}}<p class="error" role="alert" id="conflict">Someone changed this record since you opened it. This is the record on the server now; your edit was not saved.</p>{{/conflict}}
            <p>Type {{recordType}} · change tag <code id="change-tag">{{changeTag}}</code> · in zone {{zone}}</p>
            <p>Created {{created}}<br>Modified {{modified}}</p>
            <div class="scroll"><table>
            <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Value</th></tr></thead>
            <tbody>{{#fields}}<tr><td>{{name}}</td><td>{{type}}</td><td>{{#link}}<a href="{{link}}">{{display}}</a>{{/link}}{{^link}}{{display}}{{/link}}{{#download}} <a href="{{download}}">download</a>{{/download}}</td></tr>{{/fields}}</tbody>
            </table></div>
            <p><a href="{{history}}" id="history-link">History</a> · <a href="{{back}}">Back to the zone</a></p>
            </section>
            <section>
            <h2>Edit</h2>
            <form method="post" action="/console/containers/{{containerPath}}/record" id="edit-form">
            {{> console-place}}<input type="hidden" name="op" value="save"><input type="hidden" name="name" value="{{name}}"><input type="hidden" name="changeTag" value="{{changeTag}}">
            <div class="row">{{#fields}}{{#editable}}<label>{{name}} ({{type}}) <input name="field.{{name}}" value="{{editable}}" id="field-{{name}}"></label>{{/editable}}{{/fields}}</div>
            <div class="row">
            <label>New field <input name="newField"></label>
            <label>Type <select name="newType"><option>STRING</option><option>INT64</option><option>DOUBLE</option><option>TIMESTAMP</option><option>REFERENCE</option></select></label>
            <label>Value <input name="newValue"></label>
            </div>
            <p><button type="submit" id="save">Save</button></p>
            </form>
            <form method="post" action="/console/containers/{{containerPath}}/record" class="inline">
            {{> console-place}}<input type="hidden" name="op" value="delete"><input type="hidden" name="name" value="{{name}}"><input type="hidden" name="changeTag" value="{{changeTag}}">
            <button type="submit" class="danger" id="delete-record">Delete this record</button>
            </form>
            </section>
            {{> console-bottom}}
            """,
        "console-history": """
            {{> console-top}}
            <section>
            <h1>History of {{name}}</h1>
            {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
            <p>Newest first: the current version, then the versions kept for history. Restoring one saves it again as a new version, which every device fetches.</p>
            <div class="scroll"><table id="versions">
            <thead><tr><th scope="col">Version</th><th scope="col">When</th><th scope="col">Who</th><th scope="col">What changed (before → after)</th><th scope="col"></th></tr></thead>
            <tbody>{{#versions}}<tr><td><code>{{tag}}</code>{{#isCurrent}} (current){{/isCurrent}}</td><td>{{when}}</td><td>{{who}}</td>
            <td><ul>{{#changes}}<li>{{field}}: {{#hasBefore}}<del>{{before}}</del> → {{/hasBefore}}<ins>{{after}}</ins></li>{{/changes}}</ul></td>
            <td>{{#restorable}}<form method="post" action="/console/containers/{{containerPath}}/history" class="inline">
            {{> console-place}}<input type="hidden" name="op" value="restore"><input type="hidden" name="name" value="{{name}}"><input type="hidden" name="tag" value="{{tag}}"><input type="hidden" name="current" value="{{current}}">
            <button type="submit" class="restore-version">Restore this version</button></form>{{/restorable}}</td></tr>{{/versions}}</tbody>
            </table></div>
            <p><a href="{{back}}">Back to the record</a></p>
            </section>
            {{> console-bottom}}
            """,
        "console-recovery": """
            {{> console-top}}
            <section>
            <h1>Recycle bin of {{zone}}</h1>
            {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
            {{#needsUser}}<p>Name the user whose database to show.</p>{{/needsUser}}
            <div class="scroll"><table id="recycle-bin">
            <thead><tr><th scope="col">Record</th><th scope="col">Type</th><th scope="col">Deleted</th><th scope="col">By</th><th scope="col"></th></tr></thead>
            <tbody>{{#deleted}}<tr><td><a href="{{history}}">{{name}}</a></td><td>{{type}}</td><td>{{when}}</td><td>{{who}}</td>
            <td><form method="post" action="/console/containers/{{containerPath}}/history" class="inline">
            {{> console-place}}<input type="hidden" name="op" value="undelete"><input type="hidden" name="name" value="{{name}}"><input type="hidden" name="tag" value="{{changeTag}}">
            <button type="submit" class="undelete">Undelete</button></form></td></tr>{{/deleted}}</tbody>
            </table></div>
            </section>
            <section>
            <h2>Restore the zone to a moment</h2>
            {{#alarm}}<p role="status" id="alarm-moment">The moment before the loss the alarm reported is filled in.</p>{{/alarm}}
            <p>Records changed since are saved back as they were, deleted ones undeleted, those created since deleted: as new changes, which every device fetches.</p>
            <form method="post" action="/console/containers/{{containerPath}}/history" class="inline">
            {{> console-place}}<input type="hidden" name="op" value="restoreZone">
            <label>Moment (UTC) <input name="at" value="{{at}}" id="restore-moment" size="30"></label>
            <button type="submit" class="danger" id="restore-zone">Restore {{zone}}</button>
            </form>
            </section>
            {{#private}}<section>
            <h2>Deleted zones</h2>
            <ul id="deleted-zones">{{#deletedZones}}<li>{{name}}, deleted {{when}}
            <form method="post" action="/console/containers/{{containerPath}}/history" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="environment" value="{{environment}}"><input type="hidden" name="database" value="private"><input type="hidden" name="user" value="{{user}}"><input type="hidden" name="zone" value="{{name}}">
            <input type="hidden" name="op" value="restoreZone"><input type="hidden" name="at" value="{{at}}"><button type="submit" class="restore-deleted-zone">Bring it back</button></form></li>{{/deletedZones}}</ul>
            </section>{{/private}}
            <p><a href="{{back}}">Back to the zone</a></p>
            {{> console-bottom}}
            """,
        "console-schema": """
            {{> console-top}}
            <section>
            <h1>Schema of {{container}}</h1>
            <h2>Deploy development to production</h2>
            {{#upToDate}}<p id="deploy-preview">Production has development's schema.</p>{{/upToDate}}
            {{^upToDate}}{{^problems}}<p>A deploy would make these changes:</p><ul id="deploy-preview">{{#changes}}<li><code>{{.}}</code></li>{{/changes}}</ul>
            <form method="post" action="/console/containers/{{containerPath}}/schema/deploy" class="inline">
            <input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" id="deploy">Deploy to production</button></form>{{/problems}}{{/upToDate}}
            {{#problems}}<p class="error deploy-refusal">Refused, production would lose data: {{.}}</p>{{/problems}}
            </section>
            <section>
            <h2>Development</h2>
            <pre id="development-schema">{{development}}</pre>
            <p><a href="/console/containers/{{containerPath}}/schema/export?environment=development">Export development</a></p>
            <form method="post" action="/console/containers/{{containerPath}}/schema/import">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>Import a schema file into development <textarea name="text" id="schema-text" rows="10" cols="60">{{development}}</textarea></label>
            <p><button type="submit" id="import-schema">Import into development</button></p>
            </form>
            </section>
            <section>
            <h2>Production</h2>
            <pre id="production-schema">{{production}}</pre>
            <p><a href="/console/containers/{{containerPath}}/schema/export?environment=production">Export production</a></p>
            </section>
            {{> console-bottom}}
            """,
        "console-activity": """
            {{> console-top}}
            <section>
            <h1>Activity</h1>
            <p id="live" role="status">Connecting…</p>
            <div class="scroll"><table>
            <thead><tr><th scope="col">Time</th><th scope="col">Container</th><th scope="col">Environment</th><th scope="col">Database</th><th scope="col">Zone</th><th scope="col">Record</th><th scope="col">Type</th><th scope="col">Change</th></tr></thead>
            <tbody id="changes">{{#changes}}<tr><td>{{time}}</td><td>{{container}}</td><td>{{environment}}</td><td>{{database}}</td><td>{{zone}}</td><td>{{record}}</td><td>{{type}}</td><td>{{change}}{{#alarm}}: {{alarm}}{{/alarm}}{{#restore}} <a href="{{restore}}" class="restore-zone">Restore this zone to before</a>{{/restore}}</td></tr>{{/changes}}</tbody>
            </table></div>
            </section>
            <section>
            <h2>Requests</h2>
            <div class="scroll"><table>
            <thead><tr><th scope="col">Span</th><th scope="col">Requests</th><th scope="col">Per second</th><th scope="col">4xx</th><th scope="col">5xx</th><th scope="col">p50 ms</th><th scope="col">p99 ms</th></tr></thead>
            <tbody>{{#summaries}}<tr><td>{{span}}</td><td>{{requests}}</td><td>{{perSecond}}</td><td>{{clientErrors}}</td><td>{{serverErrors}}</td><td>{{p50}}</td><td>{{p99}}</td></tr>{{/summaries}}</tbody>
            </table></div>
            <h2>Recent requests (the access log, secrets redacted)</h2>
            <div class="scroll"><table>
            <thead><tr><th scope="col">Time</th><th scope="col">Client</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">ms</th></tr></thead>
            <tbody>{{#requests}}<tr><td>{{time}}</td><td>{{client}}</td><td>{{method}}</td><td>{{path}}</td><td>{{status}}</td><td>{{ms}}</td></tr>{{/requests}}</tbody>
            </table></div>
            </section>
            <section>
            <h2>Administrators' actions (the audit log)</h2>
            <div class="scroll"><table id="audit">
            <thead><tr><th scope="col">Time</th><th scope="col">Who</th><th scope="col">From</th><th scope="col">Action</th><th scope="col">Container</th><th scope="col">On</th></tr></thead>
            <tbody>{{#audit}}<tr><td>{{time}}</td><td>{{actor}}</td><td>{{origin}}</td><td>{{action}}</td><td>{{container}}</td><td>{{detail}}</td></tr>{{/audit}}</tbody>
            </table></div>
            </section>
            <script src="/console/activity.js"></script>
            {{> console-bottom}}
            """,
        "console-query": """
            {{> console-top}}
            <section>
            <h1>Query {{container}}</h1>
            <form method="get" action="/console/containers/{{containerPath}}/query" id="query-form">
            <div class="row">
            <label>Environment <select name="environment"><option value="development">development</option><option value="production"{{#production}} selected{{/production}}>production</option></select></label>
            <label>Database <select name="database"><option value="public">public</option><option value="private"{{#private}} selected{{/private}}>a user's private</option></select></label>
            <label>User (private) <input name="user" value="{{user}}"></label>
            <label>Zone <input name="zone" value="{{zone}}"></label>
            <label>Record type <input name="type" value="{{type}}" id="query-type" required></label>
            </div>
            {{#filters}}<div class="row">
            <label>Field {{row}} <input name="field{{row}}" value="{{field}}" id="field{{row}}"></label>
            <label>Comparator {{row}} <select name="comparator{{row}}" id="comparator{{row}}">{{#comparators}}<option{{#selected}} selected{{/selected}}>{{name}}</option>{{/comparators}}</select></label>
            <label>Value {{row}} <input name="value{{row}}" value="{{value}}" id="value{{row}}"></label>
            </div>{{/filters}}
            <div class="row">
            <label>Sort by <input name="sort" value="{{sort}}" id="sort"></label>
            <label>Order <select name="order" id="order"><option value="ascending">ascending</option><option value="descending"{{#descending}} selected{{/descending}}>descending</option></select></label>
            <button type="submit" id="run-query">Run</button>
            </div>
            </form>
            </section>
            {{#ran}}<section>
            <h2>Results</h2>
            <div class="scroll"><table id="results">
            <thead><tr><th scope="col">Record</th><th scope="col">Fields</th></tr></thead>
            <tbody>{{#results}}<tr><td><a href="{{link}}">{{name}}</a></td><td>{{summary}}</td></tr>{{/results}}</tbody>
            </table></div>
            </section>{{/ran}}
            {{> console-bottom}}
            """,
    ]
}
