import type { ComponentChildren } from "preact";

export type Column<Row> = { header: string; cell: (row: Row) => ComponentChildren; numeric?: boolean };

/** A data table with a caption (its accessible name) and header cells; scrolls sideways on a phone. */
export function Table<Row>(props: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  empty: string;
}) {
  return (
    <div class="table-scroll">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.header} scope="col" class={column.numeric ? "numeric" : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 ? (
            <tr>
              <td colSpan={props.columns.length} class="empty">
                {props.empty}
              </td>
            </tr>
          ) : (
            props.rows.map((row) => (
              <tr key={props.rowKey(row)}>
                {props.columns.map((column) => (
                  <td key={column.header} class={column.numeric ? "numeric" : undefined}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
