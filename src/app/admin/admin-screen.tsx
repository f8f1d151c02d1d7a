/** The /admin overview (spec/platform.md admin area): owners and admins only. Built by issue 13's admin work. */
export default function AdminScreen() {
  return <h1 className="text-2xl font-semibold m-0">Admin</h1>;
}
