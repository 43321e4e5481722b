import { useState } from "preact/hooks";
import { formatMoney } from "../../../../../src/kernel/money.ts";
import { updateProduct } from "../../../../lib/api/product-by-id.ts";
import { exportProducts, listProducts, type Product, type ProductQuery } from "../../../../lib/api/products.ts";
import { saveFile } from "../../../../lib/download.ts";
import { useResource } from "../../../../lib/resource.ts";
import { ProductForm } from "../../../../products/product-form.tsx";
import { Button, Field, SelectField, Table, toast } from "../../../../ui/index.ts";
import { Status } from "../../shared.tsx";
import { ProductImport } from "./product-import.tsx";

type Editing = { product: Product | undefined } | "import" | undefined;
/** The search the owner typed ("": no filter) and which products it shows. */
type ProductFilter = Required<Pick<ProductQuery, "q" | "category" | "active">>;

const stockText = (product: Product) =>
  product.stock_qty === null ? "—" : `${product.stock_qty}${product.low_stock ? " (low)" : ""}`;

/** One page of products with each row's Edit and Archive/Restore. */
function ProductTable(props: {
  products: readonly Product[];
  pageNumber: number;
  onEdit: (product: Product) => void;
  onSetActive: (product: Product, active: boolean) => void;
}) {
  return (
    <Table
      caption={`Products, page ${props.pageNumber}`}
      rows={props.products}
      rowKey={(product) => product.id}
      empty="No products match."
      columns={[
        { header: "Name", cell: (product) => product.name },
        {
          header: "Price",
          numeric: true,
          cell: (product) =>
            product.price_cents === null ? "At sale" : formatMoney(product.currency, product.price_cents),
        },
        { header: "In stock", numeric: true, cell: stockText },
        { header: "SKU", cell: (product) => product.sku ?? "—" },
        { header: "Barcode", cell: (product) => product.barcode ?? "—" },
        { header: "Category", cell: (product) => product.category ?? "—" },
        {
          header: "Actions",
          cell: (product) => (
            <span class="row">
              <Button aria-label={`Edit ${product.name}`} onClick={() => props.onEdit(product)}>
                Edit
              </Button>
              <Button
                aria-label={`${product.active ? "Archive" : "Restore"} ${product.name}`}
                onClick={() => props.onSetActive(product, !product.active)}
              >
                {product.active ? "Archive" : "Restore"}
              </Button>
            </span>
          ),
        },
      ]}
    />
  );
}

function ProductFilters(props: { filter: ProductFilter; filterBy: (changes: Partial<ProductFilter>) => void }) {
  const { filter, filterBy } = props;
  return (
    <div class="row">
      <Field
        label="Search"
        type="search"
        hint="Name, SKU or barcode"
        value={filter.q}
        onValue={(q) => filterBy({ q })}
      />
      <Field label="Category" value={filter.category} onValue={(category) => filterBy({ category })} />
      <SelectField
        label="Show"
        value={filter.active}
        onValue={(active) => filterBy({ active: active as ProductFilter["active"] })}
        options={[
          { value: "true", label: "Active" },
          { value: "false", label: "Archived" },
          { value: "all", label: "All" },
        ]}
      />
    </div>
  );
}

/** The dialog open over the list: a product's form, or the import. */
function ProductDialog(props: { editing: Editing; close: () => void; done: (message: string) => void }) {
  const { editing } = props;
  if (editing === undefined) return null;
  return editing === "import" ? (
    <ProductImport
      onClose={props.close}
      onImported={(summary) => props.done(`Imported: ${summary.created} new, ${summary.updated} changed.`)}
    />
  ) : (
    <ProductForm
      product={editing.product}
      onClose={props.close}
      onSaved={(product) => props.done(`${product.name} saved.`)}
    />
  );
}

async function downloadCsv() {
  const file = await exportProducts();
  saveFile({ blob: file.blob, filename: file.filename ?? "products.csv" });
}

/** The catalog: search, filter and page it; create, edit, archive and restore; import and export CSV. */
export function ProductsPage() {
  const [filter, setFilter] = useState<ProductFilter>({ q: "", category: "", active: "true" });
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [editing, setEditing] = useState<Editing>();
  const cursor = cursors.at(-1);
  const [products, reload] = useResource(() => listProducts({ ...filter, cursor, limit: 50 }), [filter, cursor]);
  const filterBy = (changes: Partial<ProductFilter>) => {
    setCursors([undefined]);
    setFilter({ ...filter, ...changes });
  };
  const failed = (error: unknown) => toast(error instanceof Error ? error.message : String(error), "error");
  async function setActive(product: Product, active: boolean) {
    try {
      await updateProduct(product.id, { active });
      toast(`${product.name} ${active ? "restored" : "archived"}.`);
      reload();
    } catch (error) {
      failed(error);
    }
  }
  return (
    <>
      <h1>Products</h1>
      <div class="row">
        <Button variant="primary" onClick={() => setEditing({ product: undefined })}>
          New product
        </Button>
        <Button onClick={() => setEditing("import")}>Import CSV</Button>
        <Button onClick={() => downloadCsv().catch(failed)}>Export CSV</Button>
      </div>
      <ProductFilters filter={filter} filterBy={filterBy} />
      {products.state === "loaded" ? (
        <>
          <ProductTable
            products={products.value.data}
            pageNumber={cursors.length}
            onEdit={(product) => setEditing({ product })}
            onSetActive={setActive}
          />
          <div class="pager">
            <Button disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
              Previous page
            </Button>
            <Button
              disabled={!products.value.has_more}
              onClick={() => setCursors([...cursors, products.value.next_cursor ?? undefined])}
            >
              Next page
            </Button>
          </div>
        </>
      ) : (
        <Status resource={products} />
      )}
      <ProductDialog
        editing={editing}
        close={() => setEditing(undefined)}
        done={(message) => {
          setEditing(undefined);
          toast(message);
          reload();
        }}
      />
    </>
  );
}
