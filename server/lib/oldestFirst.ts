/** Ids in the order they were kept, taken oldest first: amortised constant time (the array is cut once half of it was taken). */
export class OldestFirst {
  private ids: string[] = [];
  private head = 0;
  get size(): number {
    return this.ids.length - this.head;
  }
  push(id: string): void {
    this.ids.push(id);
  }
  peek(): string | undefined {
    return this.ids[this.head];
  }
  shift(): string | undefined {
    const id = this.ids[this.head++];
    if (this.head * 2 >= this.ids.length) {
      this.ids = this.ids.slice(this.head);
      this.head = 0;
    }
    return id;
  }
}
