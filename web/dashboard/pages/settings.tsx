import { useState } from "preact/hooks";
import { changePassword, listAuditLog, listSessions, revokeSession } from "../../lib/api/sessions.ts";
import { formatDateTime, formatRelative } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, Field, FormError, Table, toast } from "../../ui/index.ts";
import { Status } from "./shared.tsx";
import { SignOutEverywhere } from "./sign-out-everywhere.tsx";
import { TwoFactorSection } from "./two-factor-settings.tsx";

/** Password, two-factor sign-in, the user's sessions (with revoke) and the account's audit log. */
export function SettingsPage() {
  const [sessions, reloadSessions] = useResource(() => listSessions().then((page) => page.data), []);
  const [audit] = useResource(() => listAuditLog(20), []);
  return (
    <>
      <h1>Settings</h1>
      <PasswordForm onChanged={reloadSessions} />
      <TwoFactorSection />
      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Signed-in sessions</h2>
        {sessions.state === "loaded" ? (
          <Table
            caption="Where you are signed in"
            rows={sessions.value}
            rowKey={(session) => session.id}
            empty="No sessions."
            columns={[
              { header: "Device", cell: (session) => `${session.device}${session.current ? " (this browser)" : ""}` },
              { header: "Kind", cell: (session) => session.kind },
              { header: "Address", cell: (session) => session.client_address ?? "—" },
              { header: "Last seen", cell: (session) => formatRelative(session.last_seen_at) },
              {
                header: "Action",
                cell: (session) =>
                  session.current ? (
                    "—"
                  ) : (
                    <Button
                      variant="danger"
                      aria-label={`Sign out ${session.device}, last seen ${formatRelative(session.last_seen_at)}`}
                      onClick={async () => {
                        await revokeSession(session.id);
                        toast("Session signed out.");
                        reloadSessions();
                      }}
                    >
                      Sign out
                    </Button>
                  ),
              },
            ]}
          />
        ) : (
          <Status resource={sessions} />
        )}
        <SignOutEverywhere />
      </section>
      <section aria-labelledby="audit-title">
        <h2 id="audit-title">Audit log</h2>
        {audit.state === "loaded" ? (
          <Table
            caption="Latest account activity"
            rows={audit.value.data}
            rowKey={(entry) => entry.id}
            empty="Nothing yet."
            columns={[
              { header: "When", cell: (entry) => formatDateTime(entry.created_at) },
              { header: "Action", cell: (entry) => entry.action },
              { header: "By", cell: (entry) => entry.actor.name ?? entry.actor.type },
            ]}
          />
        ) : (
          <Status resource={audit} />
        )}
      </section>
    </>
  );
}

function PasswordForm(props: { onChanged: () => void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const { busy, error, run } = useAction("The password could not be changed.");
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          await run(async () => {
            await changePassword({ current_password: current, new_password: next });
            setCurrent("");
            setNext("");
            toast("Password changed. Your other sessions were signed out and every till unpaired.");
            props.onChanged();
          });
        }}
      >
        <Field
          label="Current password"
          type="password"
          autocomplete="current-password"
          required
          value={current}
          onValue={setCurrent}
        />
        <Field
          label="New password"
          type="password"
          autocomplete="new-password"
          minLength={10}
          required
          hint="At least 10 characters."
          value={next}
          onValue={setNext}
        />
        <FormError error={error} />
        <Button type="submit" variant="primary" busy={busy}>
          Change password
        </Button>
      </form>
    </section>
  );
}
