extension PageTemplates {
    /// The web sign-in page (``SignInPageRoutes``): the form, the page that hands a popup's session
    /// to its opener, and the refusal; and the "your account" page (``AccountPageRoutes``). They
    /// fill the share pages' `layout` frame.
    static let signInTemplates = [
        "signin-style": """
            <style>
            form { display: grid; gap: .4rem; margin-top: 1rem; }
            label { font-weight: 600; margin-top: .4rem; }
            input { font: inherit; padding: .5rem; border: 1px solid #86868b; border-radius: 8px; width: 100%; box-sizing: border-box; }
            input:focus, button:focus { outline: 3px solid #0071e3; outline-offset: 2px; }
            .actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: 1rem; }
            button { font: inherit; padding: .6rem 1.2rem; border-radius: 8px; border: 0; background: #0071e3; color: #fff; }
            button.secondary { background: #e8e8ed; color: #1d1d1f; }
            .error { color: #b00020; }
            .hint { color: #6e6e73; font-size: .9rem; }
            a.provider { display: inline-block; padding: .6rem 1.2rem; border-radius: 8px; background: #e8e8ed; color: #1d1d1f; text-decoration: none; }
            </style>
            """,
        "signin-page": """
            {{> layout-top}}
            {{> signin-style}}
            <h1>Sign in</h1>
            <p><strong>{{app}}</strong> asks you to sign in.</p>
            {{#error}}<p class="error" role="alert" id="error">{{error}}</p>{{/error}}
            <form method="post" action="{{action}}">
            {{> credential-fields}}
            <label for="email">Email <span class="hint">(only to create an account; optional)</span></label>
            <input id="email" name="email" type="email" autocomplete="email" maxlength="255">
            <div class="actions">
            <button type="submit" name="action" value="signin" id="sign-in">Sign in</button>
            <button type="submit" name="action" value="signup" class="secondary" id="sign-up">Create an account</button>
            </div>
            </form>
            {{#passkeys}}
            <div class="actions">
            <button type="button" class="secondary" data-passkey="get" data-options-url="{{signInOptions}}" value="passkey-signin" id="passkey-sign-in">Sign in with a passkey</button>
            <button type="button" class="secondary" data-passkey="create" data-options-url="{{signUpOptions}}" value="passkey-signup" id="passkey-sign-up">Create an account with a passkey</button>
            </div>
            <p class="hint">A passkey signs you in with your device's lock (a fingerprint, your face, a PIN) instead of a password.</p>
            {{> passkey-form}}
            {{/passkeys}}
            {{#hasProviders}}<div class="actions" id="providers">{{#providers}}<a class="provider" href="{{url}}" data-provider="{{name}}">Sign in with {{title}}</a>{{/providers}}</div>{{/hasProviders}}
            {{#emailCodes}}
            <form method="post" action="{{action}}" id="email-code-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            {{^codeSent}}
            <label for="code-email">Or sign in with a code sent by email</label>
            <input id="code-email" name="email" type="email" autocomplete="email" maxlength="255">
            <div class="actions"><button type="submit" name="action" value="email-code" class="secondary" id="email-code">Email me a code</button></div>
            {{/codeSent}}
            {{#codeSent}}
            <p role="status" id="code-sent">If {{codeSent}} can sign in here, a code is on its way (valid 10 minutes).</p>
            <input type="hidden" name="email" value="{{codeSent}}">
            <label for="code">Code</label>
            <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="16">
            <div class="actions"><button type="submit" name="action" value="email-signin" id="email-sign-in">Sign in with the code</button></div>
            {{/codeSent}}
            </form>
            {{/emailCodes}}
            <p><a href="{{forgot}}" id="forgot">Forgot your password?</a></p>
            {{> layout-bottom}}
            """,
        "signin-password": """
            {{> layout-top}}
            {{> signin-style}}
            <h1>Reset your password</h1>
            {{#error}}<p class="error" role="alert" id="error">{{error}}</p>{{/error}}
            {{#done}}<p role="status" id="done">Your password is changed, and every device was signed out.</p>
            <p><a href="{{signIn}}" id="back">Sign in</a></p>{{/done}}
            {{^done}}
            {{^mailed}}
            <p>Give the email address of your account: a reset code goes to it if you verified it.</p>
            <form method="post" action="{{action}}">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="forgot">
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autocomplete="email" required maxlength="255" autofocus>
            <div class="actions"><button type="submit" id="send-code">Mail me a code</button></div>
            </form>
            {{/mailed}}
            {{#mailed}}
            <p role="status" id="mailed">If an account has that address, a reset code is on its way (valid 30 minutes).</p>
            <form method="post" action="{{action}}">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action" value="reset">
            <label for="code">Reset code</label>
            <input id="code" name="code" required maxlength="32" autocomplete="one-time-code" autofocus>
            <label for="password">New password</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8">
            <div class="actions"><button type="submit" id="reset">Set the password</button></div>
            </form>
            {{/mailed}}
            <p><a href="{{signIn}}">Back to sign-in</a></p>
            {{/done}}
            {{> layout-bottom}}
            """,
        "signin-handoff": """
            {{> layout-top}}
            <h1>Signed in</h1>
            <div id="handoff" data-origin="{{origin}}" data-token="{{token}}"></div>
            <p>You can close this window and go back to the app.</p>
            <script src="{{script}}"></script>
            {{> layout-bottom}}
            """,
        "passkey-form": """
            <p class="error" role="alert" id="passkey-error" hidden></p>
            <form method="post" action="{{action}}" id="passkey-form">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="action"><input type="hidden" name="credential">
            <input type="hidden" name="username"><input type="hidden" name="email">
            </form>
            <script src="/auth/1/passkey.js"></script>
            """,
        "credential-fields": """
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="username">Username</label>
            <input id="username" name="username" autocomplete="username" required maxlength="64" value="{{username}}" autofocus>
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required>
            """,
        "account-signin": """
            {{> layout-top}}
            {{> signin-style}}
            <h1>Your account</h1>
            <p>Sign in to see where your account is signed in and how it signs in.</p>
            {{#error}}<p class="error" role="alert" id="error">{{error}}</p>{{/error}}
            <form method="post" action="{{action}}">
            {{> credential-fields}}
            <div class="actions"><button type="submit" name="action" value="signin" id="sign-in">Sign in</button></div>
            </form>
            {{#passkeys}}
            <div class="actions"><button type="button" class="secondary" data-passkey="get" data-options-url="{{signInOptions}}" value="passkey-signin" id="passkey-sign-in">Sign in with a passkey</button></div>
            {{> passkey-form}}
            {{/passkeys}}
            {{#hasProviders}}<div class="actions" id="providers">{{#providers}}<a class="provider" href="{{url}}" data-provider="{{name}}">Sign in with {{title}}</a>{{/providers}}</div>{{/hasProviders}}
            {{> layout-bottom}}
            """,
        "account-page": """
            {{> layout-top}}
            {{> signin-style}}
            <style>
            .scroll { overflow-x: auto; max-width: 100%; }
            table { border-collapse: collapse; width: 100%; }
            th, td { text-align: left; padding: .3rem .4rem; border-bottom: 1px solid #d2d2d7; vertical-align: top; }
            td:first-child { overflow-wrap: anywhere; min-width: 8rem; }
            td:not(:first-child), th, button { white-space: nowrap; }
            form.inline { display: inline; margin: 0; }
            td form { margin: 0; }
            </style>
            <h1>Your account</h1>
            <p><strong id="username">{{username}}</strong>{{#email}} · {{email}}{{#emailVerified}} (verified){{/emailVerified}}{{/email}}</p>
            {{#error}}<p class="error" role="alert" id="error">{{error}}</p>{{/error}}
            {{#notice}}<p role="status" id="notice">{{notice}}</p>{{/notice}}
            <h2>How you sign in</h2>
            <ul id="methods">{{#methods}}<li>{{name}}{{#removable}} <form method="post" action="{{action}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" name="action" value="unlink-apple" class="secondary" id="unlink-apple">Remove</button></form>{{/removable}}</li>{{/methods}}</ul>
            {{#passkeys}}
            <h2>Passkeys</h2>
            <ul id="passkeys">{{#passkeyList}}<li data-passkey-id="{{id}}">{{name}} <span class="hint">added {{created}}{{#lastUsed}}, last used {{lastUsed}}{{/lastUsed}}</span> <form method="post" action="{{action}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="passkey" value="{{id}}"><button type="submit" name="action" value="remove-passkey" class="secondary">Remove</button></form></li>{{/passkeyList}}</ul>
            <div class="actions"><button type="button" data-passkey="create" data-options="{{registerOptions}}" value="add-passkey" id="add-passkey">Add a passkey</button></div>
            {{/passkeys}}
            {{#hasProviders}}
            <h2>Sign-in providers</h2>
            <ul id="providers">{{#providers}}<li data-provider="{{name}}">{{title}}{{#linked}} <span class="hint">{{#email}}{{email}}, {{/email}}linked {{linked}}</span> <form method="post" action="{{action}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="provider" value="{{name}}"><button type="submit" name="action" value="unlink-provider" class="secondary">Remove</button></form>{{/linked}}{{^linked}} <a class="provider" href="{{linkURL}}" data-link="{{name}}">Link {{title}}</a>{{/linked}}</li>{{/providers}}</ul>
            {{/hasProviders}}
            <h2>Where you are signed in</h2>
            <div class="scroll"><table id="sessions">
            <thead><tr><th scope="col">Device</th><th scope="col">From</th><th scope="col">Signed in</th><th scope="col">Last used</th><th scope="col"></th></tr></thead>
            <tbody>{{#sessions}}<tr data-session="{{id}}"><td>{{device}}</td><td>{{clientAddress}}</td><td>{{created}}</td><td>{{lastUsed}}</td>
            <td>{{#current}}This device{{/current}}{{^current}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="session" value="{{id}}"><button type="submit" name="action" value="signout-session" class="secondary">Sign out</button></form>{{/current}}</td></tr>{{/sessions}}</tbody>
            </table></div>
            <h2>Change your password</h2>
            <form method="post" action="{{action}}">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="new-password">New password</label>
            <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required minlength="8">
            <div class="actions"><button type="submit" name="action" value="password" id="change-password">Change it</button></div>
            </form>
            <h2>Confirm it's you</h2>
            <p class="hint">Changing how you sign in takes a sign-in of the last few minutes: confirm with your password{{#passkeys}} or a passkey{{/passkeys}} first.</p>
            <form method="post" action="{{action}}">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="confirm-password">Password</label>
            <input id="confirm-password" name="password" type="password" autocomplete="current-password" required>
            <div class="actions"><button type="submit" name="action" value="reauthenticate" id="confirm">Confirm</button>
            </div>
            </form>
            {{#passkeys}}
            <div class="actions"><button type="button" class="secondary" data-passkey="get" data-options-url="{{signInOptions}}" value="reauthenticate-passkey" id="confirm-passkey">Confirm with a passkey</button></div>
            {{> passkey-form}}
            {{/passkeys}}
            {{#providers}}{{#linked}}<div class="actions"><a class="provider" href="{{confirmURL}}" data-confirm="{{name}}">Confirm with {{title}}</a></div>{{/linked}}{{/providers}}
            <form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}">
            <div class="actions"><button type="submit" name="action" value="signout" class="secondary" id="sign-out">Sign out</button></div></form>
            {{> layout-bottom}}
            """,
        "signin-refused": """
            {{> layout-top}}
            <h1>{{pageTitle}}</h1>
            <p role="alert">{{text}}</p>
            {{> layout-bottom}}
            """,
    ]
}
