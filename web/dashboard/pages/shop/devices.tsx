import { useState } from "preact/hooks";
import { listTillDevices, revokeTillDevice, type TillDevice } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { Button, Dialog, Table, toast } from "../../../ui/index.ts";
import { Status } from "../shared.tsx";

/**
 * The tills paired with the shop. Pairing happens at the till itself (the device keeps its own token,
 * which never passes through this page); here the owner sees the devices and unpairs one, which the
 * API applies at once: its token is refused and its sessions end.
 */
export function TillDevicesPage() {
  const [devices, reload] = useResource(() => listTillDevices(), []);
  const [unpairing, setUnpairing] = useState<TillDevice | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <h1>Till devices</h1>
      <PairingSteps />
      <section aria-labelledby="devices-title">
        <h2 id="devices-title">Paired devices</h2>
        {devices.state === "loaded" ? (
          <DeviceTable devices={devices.value.data} onUnpair={setUnpairing} />
        ) : (
          <Status resource={devices} />
        )}
      </section>
      <Dialog open={unpairing !== undefined} title="Unpair this till?" onClose={() => setUnpairing(undefined)}>
        <p>
          <strong>{unpairing?.name}</strong> is signed out at once and its device key stops working. To use it again,
          pair it at the till.
        </p>
        <div class="dialog-actions">
          <Button onClick={() => setUnpairing(undefined)}>Cancel</Button>
          <Button
            variant="danger"
            busy={busy}
            onClick={async () => {
              const device = unpairing;
              if (device === undefined) return;
              setBusy(true);
              try {
                await revokeTillDevice(device.id);
                toast(`${device.name} is unpaired.`);
                reload();
              } catch (caught) {
                toast(caught instanceof Error ? caught.message : "The till was not unpaired.", "error");
              } finally {
                setBusy(false);
                setUnpairing(undefined);
              }
            }}
          >
            Unpair till
          </Button>
        </div>
      </Dialog>
    </>
  );
}

/** How a till is paired (at the till itself) and what unpairing does. */
function PairingSteps() {
  return (
    <section aria-labelledby="pair-title" class="card">
      <h2 id="pair-title">Pair a till</h2>
      <ol>
        <li>
          On the shop's device, open <code>{`${location.origin}/till`}</code>: it shows <q>Pair this till</q>.
        </li>
        <li>Name the till (e.g. "Front counter"), type your dashboard email and password, and press Pair this till.</li>
        <li>
          From then on the till opens by itself with its own device key: cashiers switch in with their PIN and nobody
          types your password at the counter. It appears below, and its shifts and sales carry its name.
        </li>
      </ol>
      <p class="muted">
        A lost or replaced device: unpair it here. It is signed out at once and cannot sell until it is paired again.
        Changing your password or signing out everywhere (Settings) unpairs every till.
      </p>
    </section>
  );
}

/** The paired and unpaired tills; a paired one has an Unpair button. */
function DeviceTable(props: { devices: TillDevice[]; onUnpair: (device: TillDevice) => void }) {
  return (
    <Table
      caption="Till devices"
      rows={props.devices}
      rowKey={(device) => device.id}
      empty="No till is paired yet."
      columns={[
        { header: "Name", cell: (device) => device.name },
        {
          header: "Status",
          cell: (device) => (
            <span class={`status status-${device.status}`}>{device.status === "paired" ? "paired" : "unpaired"}</span>
          ),
        },
        { header: "Paired", cell: (device) => formatDateTime(device.created_at) },
        { header: "Last opened", cell: (device) => formatDateTime(device.last_used_at) },
        { header: "Unpaired", cell: (device) => formatDateTime(device.revoked_at) },
        {
          header: "Actions",
          cell: (device) =>
            device.status === "paired" ? (
              <Button variant="danger" aria-label={`Unpair ${device.name}`} onClick={() => props.onUnpair(device)}>
                Unpair
              </Button>
            ) : (
              "—"
            ),
        },
      ]}
    />
  );
}
